package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.SinkMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelineCredentialsTest {
  private static Pipeline.Component component(List<Pipeline.Component> all, String name) {
    return all.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void theSinkAndConsoleGetTheirRolesAndTheFilesOfTheirPasswordsNeverThePasswords(@TempDir Path state) throws Exception {
    Path secrets = Files.createDirectories(state.resolve("secrets"));
    for (String role : List.of("fleetscope", "fleetscope_sink", "fleetscope_console")) {
      Files.writeString(secrets.resolve(role + ".password"), "pw-of-" + role + "\n");
    }
    List<Pipeline.Component> all = Pipeline.services(Endpoints.fromEnvironment(Map.of()), state, null, false);
    List<String> sink = component(all, "sink").args();
    List<String> console = component(all, "console").args();
    assertThat(String.join(" ", sink)).contains(
        "--jdbc-user fleetscope_sink --jdbc-password-file " + secrets.resolve("fleetscope_sink.password"),
        "--jdbc-owner fleetscope --jdbc-owner-password-file " + secrets.resolve("fleetscope.password"));
    assertThat(String.join(" ", console)).contains(
        "--jdbc-user fleetscope_console --jdbc-password-file " + secrets.resolve("fleetscope_console.password"));
    for (Pipeline.Component c : all) {
      assertThat(String.join(" ", c.args())).as(c.name()).doesNotContain("pw-of-");
    }
    // the sink reads them back from the files
    SinkConfig parsed = SinkMain.parse(sink.toArray(String[]::new), Map.of());
    assertThat(parsed.string(SinkConfig.JDBC_PASSWORD)).isEqualTo("pw-of-fleetscope_sink");
    assertThat(parsed.string(SinkConfig.OWNER_PASSWORD)).isEqualTo("pw-of-fleetscope");
  }

  @Test
  void withoutGeneratedPasswordsOnlyTheRolesAreGiven(@TempDir Path state) {
    List<Pipeline.Component> all = Pipeline.services(Endpoints.fromEnvironment(Map.of()), state, null, false);
    assertThat(component(all, "sink").args()).containsSubsequence("--jdbc-user", "fleetscope_sink")
        .doesNotContain("--jdbc-password-file", "--jdbc-owner-password-file");
    assertThat(component(all, "console").args()).containsSubsequence("--jdbc-user", "fleetscope_console")
        .doesNotContain("--jdbc-password-file");
  }
}
