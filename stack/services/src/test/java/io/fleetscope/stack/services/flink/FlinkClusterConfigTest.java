package io.fleetscope.stack.services.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FlinkClusterConfigTest {
  private final LocalFlink.Config config = LocalFlink.Config.forTests(Path.of("/state/flink"), Path.of("/lib"));

  @Test
  void noPrometheusReporterUnlessPortsAreGiven() {
    assertThat(FlinkClusterConfig.yaml(config)).doesNotContain("metrics.reporter");
    assertThat(FlinkClusterConfig.yaml(config.withPrometheusPorts("9249-9259")))
        .contains("metrics.reporter.prom.factory.class: org.apache.flink.metrics.prometheus.PrometheusReporterFactory\n")
        .contains("metrics.reporter.prom.port: 9249-9259\n");
  }

  @Test
  void aPortRangeIsCheckedAtOnce() {
    assertThatThrownBy(() -> config.withPrometheusPorts("9249:9259")).hasMessageContaining("9249:9259");
  }
}
