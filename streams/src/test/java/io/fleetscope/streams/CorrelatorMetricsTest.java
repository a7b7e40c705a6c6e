package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.metrics.MetricsEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The correlator's own metrics follow its deliveries: sent, failed, pending and how long the oldest change waits. */
class CorrelatorMetricsTest {

  @Test
  void deliveryLagGrowsWhileTheTargetIsDownAndClearsWhenItAcknowledges() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0",
        CorrelatorConfig.RETRY_INITIAL, "1000", CorrelatorConfig.RETRY_MAX, "1000", CorrelatorConfig.TICK, "100"))) {
      h.sink.down = true;
      Anomaly a = Fleet.gpuHot(T0.minusSeconds(30), Fleet.node(8, 1), 4);
      h.pipe(a, T0);
      h.advance(Duration.ofMillis(100));
      assertThat(sample(h, "fleetscope_correlator_notifications_failed_total")).isEqualTo(1);
      assertThat(sample(h, "fleetscope_correlator_notifications_pending")).isEqualTo(1);
      h.advance(Duration.ofMillis(2900));
      assertThat(sample(h, "fleetscope_correlator_delivery_lag_seconds")).isEqualTo(3.0);
      assertThat(sample(h, "fleetscope_correlator_notifications_sent_total")).isZero();

      h.sink.down = false;
      for (int i = 0; i < 40 && sample(h, "fleetscope_correlator_notifications_sent_total") < 1; i++) {
        h.advance(Duration.ofMillis(100)); // the next attempt after the back-off, then its acknowledgement
      }
      assertThat(sample(h, "fleetscope_correlator_notifications_sent_total")).isEqualTo(1);
      assertThat(sample(h, "fleetscope_correlator_notifications_pending")).isZero();
      assertThat(sample(h, "fleetscope_correlator_delivery_lag_seconds")).isZero();
      assertThat(render(h)).contains("fleetscope_correlator_delivery_duration_seconds_count ");
    }
  }

  private static String render(Harness h) throws Exception {
    return new MetricsEndpoint(h.metrics.registry()).render();
  }

  private static double sample(Harness h, String name) throws Exception {
    for (String line : render(h).split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new AssertionError(name + " not exposed");
  }
}
