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
    assertThat(CorrelatorConfig.describe()).contains("correlator.flap.hold.seconds (default '60')");
  }

  @Test
  void badValuesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.RESEND, "300")))
        .hasMessageContaining("correlator.alert.validity.seconds=240 must be greater than correlator.resend.interval.seconds=300");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.FLAP_HOLD, "-1")))
        .hasMessage("correlator.flap.hold.seconds=-1 must be >= 0");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of(CorrelatorConfig.TICK, "fast")))
        .hasMessage("correlator.tick.ms='fast' is not a whole number");
    assertThatThrownBy(() -> CorrelatorConfig.of(Map.of("correlator.resend.seconds", "5")))
        .hasMessageStartingWith("unknown correlator setting 'correlator.resend.seconds'; known settings: correlator.application.id");
  }

  @Test
  void fileThenFlags(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("c.properties");
    Files.writeString(f, "correlator.resend.interval.seconds=30\ncorrelator.kafka=file:9092\n");
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--config", f.toString(), "--kafka", "flag:9092",
        "--http-port", "0"});
    assertThat(c.resendInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.kafka()).isEqualTo("flag:9092");
    assertThat(c.httpPort()).isZero();
    assertThatThrownBy(() -> CorrelatorApp.parseArgs(new String[] {"--bogus", "1"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown options: '--bogus', '1'");
    // --kafka without a value leaves the file's (or the default) broker in place
    assertThat(CorrelatorApp.parseArgs(new String[] {"--config", f.toString(), "--kafka"}).kafka()).isEqualTo("file:9092");
    assertThat(CorrelatorApp.parseArgs(new String[] {"--kafka"}).kafka()).isEqualTo("127.0.0.1:19092");
  }
}
