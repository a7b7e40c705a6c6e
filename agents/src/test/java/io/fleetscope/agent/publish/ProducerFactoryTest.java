package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProducerFactoryTest {
  static Properties properties(String yaml) throws Exception {
    AgentConfig cfg = new ConfigLoader(BuiltinCollectors.registry()).parse(yaml, Path.of("/etc/fleetscope"));
    return ProducerFactory.properties(cfg);
  }

  @Test
  void idempotentCompressedAndWithoutJmxOrMetricsPushByDefault() throws Exception {
    Properties p = properties("cluster: c1\nnode: n1\n");
    assertThat(p).containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
        .containsEntry("compression.type", "lz4").containsEntry("client.id", "fleetscope-agent-n1")
        .containsEntry("metric.reporters", "").containsEntry("enable.metrics.push", "false")
        .containsEntry("buffer.memory", Long.toString(4L << 20));
  }

  @Test
  void anOperatorCanTurnTheReportersBackOn() throws Exception {
    Properties p = properties("""
        cluster: c1
        node: n1
        kafka:
          properties:
            metric.reporters: org.apache.kafka.common.metrics.JmxReporter
            enable.metrics.push: "true"
        """);
    assertThat(p).containsEntry("metric.reporters", "org.apache.kafka.common.metrics.JmxReporter")
        .containsEntry("enable.metrics.push", "true");
  }
}
