package io.fleetscope.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.publish.ProducerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kafka.config_file}: the same Kafka client properties file every other component takes with --kafka-config. */
class KafkaConfigFileTest {
  @TempDir Path tmp;

  private AgentConfig parse(String yaml) throws Exception {
    return new ConfigLoader(BuiltinCollectors.registry()).parse(yaml, tmp);
  }

  @Test
  void theFileRelativeToTheConfigSecuresTheProducerAndTheRegistryClient() throws Exception {
    Files.writeString(tmp.resolve("kafka-client.properties"), String.join("\n",
        "security.protocol=SASL_SSL",
        "sasl.mechanism=SCRAM-SHA-512",
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent\" password=\"pw1\";",
        "ssl.truststore.location=/etc/fleetscope/ca.p12",
        "basic.auth.credentials.source=USER_INFO",
        "basic.auth.user.info=agent:pw2",
        ""));
    AgentConfig cfg = parse("cluster: c1\nnode: n1\nkafka:\n  config_file: kafka-client.properties\n");
    Properties p = ProducerFactory.properties(cfg);
    assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("ssl.truststore.location", "/etc/fleetscope/ca.p12")
        .containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
        .doesNotContainKey("basic.auth.user.info");
    assertThat(cfg.kafkaClient().registryUserInfo()).contains("agent:pw2");
    assertThat(cfg.kafkaClient().describe()).doesNotContain("pw1").doesNotContain("pw2");
  }

  @Test
  void withoutTheKeyTheProducerIsPlaintext() throws Exception {
    Properties p = ProducerFactory.properties(parse("cluster: c1\nnode: n1\n"));
    assertThat(p).doesNotContainKey("security.protocol").doesNotContainKey("sasl.jaas.config");
  }

  @Test
  void aMissingOrWrongFileIsRefusedAtStartNamingTheKey() throws Exception {
    assertThatThrownBy(() -> parse("cluster: c1\nkafka:\n  config_file: nope.properties\n"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("kafka.config_file")
        .hasMessageContaining("nope.properties");
    Files.writeString(tmp.resolve("bad.properties"), "acks=0\n");
    assertThatThrownBy(() -> parse("cluster: c1\nkafka:\n  config_file: bad.properties\n"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("'acks' is not a security setting");
  }
}
