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

/** {@code run --kafka-config FILE}: the analytics job, the correlator and the sink it starts get the same file. */
class KafkaConfigHandOnTest {
  @TempDir Path tmp;

  @Test
  void runHandsTheFileToEveryComponentItStarts() throws Exception {
    Path f = tmp.resolve("client.properties");
    Files.writeString(f, "security.protocol=SASL_SSL\n");
    Endpoints e = Endpoints.fromEnvironment(Map.of("FLEETSCOPE_KAFKA", "k:9093", "FLEETSCOPE_KAFKA_CONFIG", f.toString()));
    assertThat(e.kafkaClient().kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
    assertThat(Pipeline.analyticsArgs(e, null)).containsSubsequence("--kafka", "k:9093", "--kafka-config", f.toString());
    List<Pipeline.Component> services = Pipeline.services(e, tmp, null, true);
    assertThat(services).extracting(Pipeline.Component::name).contains("analytics", "correlator", "sink");
    for (Pipeline.Component c : services) {
      if (!c.name().equals("console")) {
        assertThat(c.args()).as(c.name()).containsSubsequence("--kafka-config", f.toString());
      }
    }
    Pipeline.Component sink = services.stream().filter(c -> c.name().equals("sink")).findFirst().orElseThrow();
    SinkConfig parsed = SinkMain.parse(sink.args().toArray(String[]::new));
    assertThat(parsed.string(SinkConfig.KAFKA_CONFIG)).isEqualTo(f.toString());
  }

  @Test
  void withoutAFileNoFlagIsPassed() {
    Endpoints e = Endpoints.fromEnvironment(Map.of());
    assertThat(e.kafkaArgs()).containsExactly("--kafka", "127.0.0.1:19092");
    assertThat(e.kafkaClient().isEmpty()).isTrue();
  }
}
