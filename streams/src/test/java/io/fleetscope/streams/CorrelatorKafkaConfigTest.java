package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kafka-config FILE} / {@code correlator.kafka_config_file}: the Streams client's security settings. */
class CorrelatorKafkaConfigTest {
  @TempDir Path tmp;

  @Test
  void theFlagReachesTheStreamsConfig() throws Exception {
    Path f = tmp.resolve("c.properties");
    Files.writeString(f, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nbasic.auth.user.info=correlator:pw\n");
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--kafka", "b:9093", "--kafka-config", f.toString()});
    assertThat(c.get(CorrelatorConfig.KAFKA_CONFIG)).isEqualTo(f.toString());
    Properties p = CorrelatorApp.streamsConfig(c);
    assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("bootstrap.servers", "b:9093").doesNotContainKey("basic.auth.user.info");
    assertThat(c.kafkaClient().registryUserInfo()).contains("correlator:pw");
  }

  @Test
  void withoutItTheClientIsPlaintext() {
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--kafka", "b:9093"});
    assertThat(CorrelatorApp.streamsConfig(c)).doesNotContainKey("security.protocol");
  }

  @Test
  void aBadFileIsNamed() throws Exception {
    Path f = tmp.resolve("bad.properties");
    Files.writeString(f, "linger.ms=5\n");
    CorrelatorConfig c = CorrelatorApp.parseArgs(new String[] {"--kafka-config", f.toString()});
    assertThatThrownBy(() -> CorrelatorApp.streamsConfig(c)).hasMessageContaining(f.toString())
        .hasMessageContaining("'linger.ms' is not a security setting");
  }
}
