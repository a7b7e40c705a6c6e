package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorrelatorConfigTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    CorrelatorConfig c = CorrelatorConfig.defaults();
    assertThat(c.resendInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.validity()).isEqualTo(Duration.ofSeconds(240));
    assertThat(c.flapHold()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.minFiring()).isZero();
    assertThat(c.alertmanager()).isEqualTo("http://127.0.0.1:19093");
    assertThat(c.anomaliesTopic()).isEqualTo("fleet.anomalies.v1");
    assertThat(c.causeAlertnames()).containsExactlyInAnyOrder("CoolantFlowLow", "CoolantSupplyHot", "CoolantLeak",
        "RackPowerOverCooling");
    assertThat(CorrelatorConfig.describe()).contains("correlator.flap_hold_seconds (whole number, default '60')");
  }

  @Test
  void badValuesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.RESEND, "300")))
        .hasMessageContaining("correlator.alert_validity_seconds=240 must be greater than correlator.resend_interval_seconds=300");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.FLAP_HOLD, "-1")))
        .hasMessage("correlator.flap_hold_seconds=-1 must be >= 0");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.TICK, "fast")))
        .hasMessage("correlator.tick_ms='fast' is not a whole number");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of("correlator.resend.seconds", "5")))
        .hasMessageStartingWith("unknown correlator setting 'correlator.resend.seconds'; known settings: correlator.application_id");
  }

  @Test
  void fileThenFlags(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("c.yaml");
    Files.writeString(f, "correlator:\n  resend_interval_seconds: 30\n  kafka: file:9092\n"
        + "  group_port_alertnames: [IbLinkDown, IbLinkDegraded]\n");
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--config", f.toString(), "--kafka", "flag:9092",
        "--http-port", "0"});
    assertThat(c.resendInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.kafka()).isEqualTo("flag:9092");
    assertThat(c.httpPort()).isZero();
    assertThat(c.portAlertnames()).containsExactly("IbLinkDown", "IbLinkDegraded");
    assertThatThrownBy(() -> CorrelatorApp.parseArgs(new String[] {"--bogus", "1"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown options: '--bogus', '1'");
    // --kafka without a value leaves the file's (or the default) broker in place
    assertThat(CorrelatorApp.parseArgs(new String[] {"--config", f.toString(), "--kafka"}).kafka()).isEqualTo("file:9092");
    assertThat(CorrelatorApp.parseArgs(new String[] {"--kafka"}).kafka()).isEqualTo("127.0.0.1:19092");
  }

  @Test
  void yamlFilesWithUnknownKeysOrWrongTypesAreRefusedNamingTheKey(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("c.yaml");
    Files.writeString(f, "correlator:\n  resend_seconds: 5\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("unknown setting 'correlator.resend_seconds'")
        .hasMessageContaining("known settings: correlator.application_id,").hasMessageContaining("correlator.resend_interval_seconds");
    Files.writeString(f, "correlator.resend.interval.seconds: 30\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("unknown section 'correlator.resend.interval.seconds'; known sections: correlator");
    Files.writeString(f, "correlator:\n  tick_ms: fast\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("correlator.tick_ms must be a whole number, got a text 'fast'");
    Files.writeString(f, "correlator:\n  tick_ms: 0.5\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("correlator.tick_ms must be a whole number, got a number '0.5'");
    Files.writeString(f, "correlator:\n  group_cause_alertnames: {a: b}\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("correlator.group_cause_alertnames must be a list, got a mapping");
    Files.writeString(f, "correlator:\n  kafka: [a, b]\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessageContaining("correlator.kafka must be a text, got a list");
    Files.writeString(f, "correlator:\n  flap_hold_seconds: -1\n");
    assertThatThrownBy(() -> CorrelatorConfig.load(f, Map.of())).hasMessage("correlator.flap_hold_seconds=-1 must be >= 0");
  }

  @Test
  void theExampleFileAndTheReadmeAreTheDeclaredKeys() throws Exception {
    Path example = Path.of("correlator.yaml.example");
    assertThat(Files.readString(example)).as("correlator.yaml.example is CorrelatorConfig.yamlTemplate()")
        .isEqualTo(CorrelatorConfig.yamlTemplate());
    assertThat(CorrelatorConfig.load(example, Map.of()).asMap()).isEqualTo(CorrelatorConfig.defaults().asMap());
    assertThat(Files.readString(Path.of("README.md"))).as("README.md settings table (CorrelatorConfig.markdownTable())")
        .contains(CorrelatorConfig.markdownTable());
  }
}
