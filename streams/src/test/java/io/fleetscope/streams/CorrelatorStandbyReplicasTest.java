package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code correlator.standby_replicas}: warm state-store copies on other instances (the Kubernetes StatefulSet sets 1). */
class CorrelatorStandbyReplicasTest {
  @TempDir Path tmp;

  @Test
  void noneByDefault() {
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--kafka", "b:9093"});
    assertThat(CorrelatorApp.streamsConfig(c)).containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
  }

  @Test
  void theFileSetsThem() throws Exception {
    Path f = tmp.resolve("correlator.yaml");
    Files.writeString(f, "correlator:\n  standby_replicas: 1\n");
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--config", f.toString()});
    assertThat(CorrelatorApp.streamsConfig(c)).containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
  }

  @Test
  void aNegativeCountIsRefused() throws Exception {
    Path f = tmp.resolve("correlator.yaml");
    Files.writeString(f, "correlator:\n  standby_replicas: -1\n");
    assertThatThrownBy(() -> CorrelatorApp.parseArgs(new String[] {"--config", f.toString()}))
        .hasMessageContaining("correlator.standby_replicas=-1 must be >= 0");
  }
}
