package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgsTest {

  @Test
  void parsesValuedOptionsFlagsAndPositionals() {
    Args a = Args.parse(new String[] {"fleet.gpu.v1", "--max", "5", "--from-beginning", "--kafka=h:1"},
        Set.of("max", "kafka"), Set.of("from-beginning"));
    assertThat(a.positional()).containsExactly("fleet.gpu.v1");
    assertThat(a.getInt("max", 0)).isEqualTo(5);
    assertThat(a.has("from-beginning")).isTrue();
    assertThat(a.get("kafka", null)).isEqualTo("h:1");
    assertThat(a.get("absent", "dflt")).isEqualTo("dflt");
  }

  @Test
  void refusesUnknownOptionsMissingValuesAndBadNumbers() {
    assertThatThrownBy(() -> Args.parse(new String[] {"--nope"}, Set.of("max"), Set.of()))
        .hasMessageContaining("unknown option --nope").hasMessageContaining("--max VALUE");
    assertThatThrownBy(() -> Args.parse(new String[] {"--max"}, Set.of("max"), Set.of()))
        .hasMessage("--max needs a value");
    Args a = Args.parse(new String[] {"--max", "five"}, Set.of("max"), Set.of());
    assertThatThrownBy(() -> a.getInt("max", 1)).hasMessageContaining("--max must be a whole number");
  }

  @Test
  void endpointsComeFromDefaultsEnvironmentAndFlagsInThatOrder() {
    Endpoints d = Endpoints.fromEnvironment(Map.of());
    assertThat(d.kafka()).isEqualTo("127.0.0.1:19092");
    assertThat(d.registry()).isEqualTo("http://127.0.0.1:18081");
    assertThat(d.consoleUrl()).isEqualTo("http://127.0.0.1:18080");
    Endpoints env = Endpoints.fromEnvironment(Map.of("FLEETSCOPE_KAFKA", "k:9", "FLEETSCOPE_CONSOLE_PORT", "8"));
    assertThat(env.kafka()).isEqualTo("k:9");
    Endpoints flags = env.withFlags(Args.parse(new String[] {"--kafka", "f:1"}, Set.of("kafka"), Set.of()));
    assertThat(flags.kafka()).isEqualTo("f:1");
    assertThat(flags.consolePort()).isEqualTo(8);
  }

  @Test
  void replaySpeedIsMaxOrAPositiveMultiple() {
    assertThat(ReplayCommand.parseSpeed("max")).isZero();
    assertThat(ReplayCommand.parseSpeed("1x")).isEqualTo(1.0);
    assertThat(ReplayCommand.parseSpeed("10x")).isEqualTo(10.0);
    assertThatThrownBy(() -> ReplayCommand.parseSpeed("0x")).hasMessageContaining("--speed must be");
    assertThatThrownBy(() -> ReplayCommand.parseSpeed("fast")).hasMessageContaining("--speed must be");
  }

  @Test
  void unknownCommandsAreRefusedWithTheListOfCommands() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int rc = Main.run(new String[] {"frobnicate"}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
        new java.io.PrintStream(err));
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("unknown command 'frobnicate'").contains("demo").contains("replay");
  }
}
