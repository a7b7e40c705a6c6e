package io.fleetscope.schemas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DbPasswordTest {
  private static final String P = "FLEETSCOPE_JDBC";

  @Test
  void theFlagsFileThenTheVariableThenTheVariablesFileThenTheLocalStacksFile(@TempDir Path dir) throws Exception {
    Path flag = Files.writeString(dir.resolve("flag.pw"), "from-flag\n");
    Path named = Files.writeString(dir.resolve("named.pw"), "from-named-file\r\n");
    Path state = dir.resolve("state");
    Files.createDirectories(state.resolve("secrets"));
    Files.writeString(DbPassword.secretsFile(state, "fleetscope_console"), "from-stack\n");
    Map<String, String> all = Map.of(P + "_PASSWORD", "from-env", P + "_PASSWORD_FILE", named.toString(),
        "FLEETSCOPE_STATE_DIR", "state");

    assertThat(DbPassword.resolve(flag, all, P, "fleetscope_console", dir)).contains("from-flag");
    assertThat(DbPassword.resolve(null, all, P, "fleetscope_console", dir)).contains("from-env");
    assertThat(DbPassword.resolve(null, Map.of(P + "_PASSWORD_FILE", "named.pw", "FLEETSCOPE_STATE_DIR", "state"), P,
        "fleetscope_console", dir)).contains("from-named-file");
    assertThat(DbPassword.resolve(null, Map.of("FLEETSCOPE_STATE_DIR", "state"), P, "fleetscope_console", dir))
        .contains("from-stack");
    assertThat(DbPassword.resolve(null, Map.of("FLEETSCOPE_STATE_DIR", "state"), P, "fleetscope_sink", dir)).isEmpty();
    assertThat(DbPassword.resolve(null, Map.of(), P, "fleetscope_console", dir)).isEmpty();
  }

  @Test
  void theLocalStacksFileIsUnderDotFleetscopeByDefault(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve(".fleetscope/secrets"));
    Files.writeString(dir.resolve(".fleetscope/secrets/fleetscope_sink.password"), "s3cret\n");
    assertThat(DbPassword.resolve(null, Map.of(), P, "fleetscope_sink", dir)).contains("s3cret");
    assertThat(DbPassword.localFile(Map.of(), "fleetscope_sink", dir)).isEqualTo(dir.resolve(".fleetscope/secrets/fleetscope_sink.password"));
  }

  @Test
  void onlyTheFirstLineIsThePassword(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("pw"), "pass word with spaces \nsecond line\n");
    assertThat(DbPassword.read(f, "the password file")).isEqualTo("pass word with spaces ");
  }

  @Test
  void aMissingOrEmptyFileIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nope.pw");
    assertThatThrownBy(() -> DbPassword.resolve(missing, Map.of(), P, "u", dir))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read the password file " + missing)
        .hasMessageContaining("NoSuchFileException");
    Path empty = Files.writeString(dir.resolve("empty.pw"), "\nnot-the-password\n");
    assertThatThrownBy(() -> DbPassword.resolve(null, Map.of(P + "_PASSWORD_FILE", empty.toString()), P, "u", dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("$FLEETSCOPE_JDBC_PASSWORD_FILE " + empty + " is empty: it must hold the password on its first line");
  }

  @Test
  void anEmptyVariableCountsAsUnset(@TempDir Path dir) {
    assertThat(DbPassword.resolve(null, Map.of(P + "_PASSWORD", ""), P, "u", dir)).isEmpty();
  }
}
