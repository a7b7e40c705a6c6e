package io.fleetscope.flink.rail;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.testing.Fleet;
import org.junit.jupiter.api.Test;

class PortLinkStateTest {
  private static final AnomalyFactory F = new AnomalyFactory("rail");
  private final PortLinkState p = new PortLinkState();

  private static IbPortSample s(long ts, String state, String phys) {
    return Fleet.ib("n1", 2, ts, ts).setState(state).setPhysState(phys).build();
  }

  @Test
  void aLinkGoingDownFiresOnItsFirstSampleAndResolvesWhenItIsBackUp() {
    assertThat(p.onSample(s(t(0), "ACTIVE", "LinkUp"), "r7", F)).isNull();
    Anomaly down = p.onSample(s(t(1), "DOWN", "Polling"), "r7", F);
    assertThat(down.getStatus()).isEqualTo("firing");
    assertThat(down.getTs()).isEqualTo(t(1));
    assertThat(down.getLabels()).containsEntry("alertname", "IbLinkDown").containsEntry("severity", "critical")
        .containsEntry("device", "mlx5_2").containsEntry("port", "1").containsEntry("rail", "2");
    assertThat(down.getAnnotations().get("description")).startsWith("state=DOWN phys_state=Polling on n1 mlx5_2 port 1 (rail 2)");
    assertThat(p.onSample(s(t(2), "DOWN", "Polling"), "r7", F)).isNull();
    assertThat(p.onSample(s(t(3), "ACTIVE", "Disabled"), "r7", F)).isNull(); // phys not LinkUp: still down
    Anomaly up = p.onSample(s(t(4), "ACTIVE", "LinkUp"), "r7", F);
    assertThat(up.getStatus()).isEqualTo("resolved");
    assertThat(up.getFingerprint()).isEqualTo(down.getFingerprint());
    assertThat(up.getTs()).isEqualTo(t(4));
  }

  @Test
  void anOlderSampleArrivingLateDoesNotReopenOrResolve() {
    p.onSample(s(t(10), "DOWN", "Polling"), null, F);
    assertThat(p.onSample(s(t(9), "ACTIVE", "LinkUp"), null, F)).isNull();
    assertThat(p.firing()).isTrue();
    p.onSample(s(t(11), "ACTIVE", "LinkUp"), null, F);
    assertThat(p.onSample(s(t(10), "DOWN", "Polling"), null, F)).isNull();
    assertThat(p.firing()).isFalse();
  }

  @Test
  void firesAndResolvesWithTheWindowedAnalyzersLabelsAndTexts() {
    RailConfig cfg = io.fleetscope.flink.core.AnalyticsConfig.defaults().section("rail", RailConfig.class);
    java.util.List<Anomaly> windowed = new java.util.ArrayList<>();
    PortAnalyzer a = new PortAnalyzer();
    a.window(java.util.List.of(s(t(9), "ACTIVE", "LinkUp")), t(10), 400, "r7", cfg, F, windowed);
    a.window(java.util.List.of(s(t(19), "DOWN", "Polling")), t(20), 400, "r7", cfg, F, windowed);
    a.window(java.util.List.of(s(t(29), "ACTIVE", "LinkUp")), t(30), 400, "r7", cfg, F, windowed);
    java.util.List<Anomaly> fast = java.util.stream.Stream.of(
            p.onSample(s(t(9), "ACTIVE", "LinkUp"), "r7", F), p.onSample(s(t(19), "DOWN", "Polling"), "r7", F),
            p.onSample(s(t(29), "ACTIVE", "LinkUp"), "r7", F))
        .filter(java.util.Objects::nonNull).toList();
    java.util.function.Function<Anomaly, String> text = x -> x.getStatus() + " " + new java.util.TreeMap<>(x.getLabels())
        + " " + x.getAnnotations() + " " + x.getFingerprint() + " " + x.getTs() + " " + x.getStartsAt() + " " + x.getEndsAt();
    assertThat(fast).extracting(text).containsExactlyElementsOf(windowed.stream()
        .filter(x -> PortLinkState.ALERTS.contains(x.getLabels().get("alertname"))).map(text).toList()).hasSize(2);
  }
}
