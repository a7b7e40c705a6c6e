package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeakSensorStateTest {
  private final LeakSensorState s = new LeakSensorState();

  private static CoolantReading r(long ts, Boolean wet) {
    return CoolantReading.newBuilder().setTs(ts).setCluster("c1").setDevice("cdu-1").setLoop("A").setAgentSeq(ts)
        .setSupplyTempC(30.0).setFlowLpm(100.0).setLeakDetected(wet).build();
  }

  @Test
  void wetFiresAtOnceAndDryResolves() {
    assertThat(s.onReading(r(t(0), false), Map::of)).isNull();
    AlertChange wet = s.onReading(r(t(1), true), () -> Map.of("cluster", "c1", "device", "cdu-1", "loop", "A"));
    assertThat(wet.alertname()).isEqualTo("CoolantLeak");
    assertThat(wet.severity()).isEqualTo("critical");
    assertThat(wet.firing()).isTrue();
    assertThat(wet.summary()).isEqualTo("Coolant leak detected on CDU cdu-1 loop A");
    assertThat(wet.description()).isEqualTo("leak sensor reads wet");
    assertThat(s.onReading(r(t(2), true), Map::of)).isNull();
    assertThat(s.onReading(r(t(3), null), Map::of)).isNull(); // no sensor in this reading
    AlertChange dry = s.onReading(r(t(4), false), Map::of);
    assertThat(dry.firing()).isFalse();
    assertThat(dry.description()).isEqualTo("leak sensor reads dry");
  }

  @Test
  void anOlderReadingArrivingLateChangesNothing() {
    s.onReading(r(t(10), true), Map::of);
    assertThat(s.onReading(r(t(9), false), Map::of)).isNull();
  }

  @Test
  void decidesWhatTheLoopMonitorDidWithTheSameTexts() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(FacilitySettings.defaults());
    CoolantLoopMonitor.Limits limits = m.limits(Map.of());
    Map<String, String> labels = Map.of("cluster", "c1", "device", "cdu-1", "loop", "A", "racks", "r1");
    java.util.List<AlertChange> monitor = new java.util.ArrayList<>();
    java.util.List<AlertChange> fast = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      CoolantReading r = r(t(i), i >= 2 && i < 4);
      m.onReading(r, limits, labels).stream().filter(c -> LeakSensorState.ALERTS.contains(c.alertname())).forEach(monitor::add);
      AlertChange c = s.onReading(r, () -> labels);
      if (c != null) {
        fast.add(c);
      }
    }
    assertThat(fast).hasSize(2).isEqualTo(monitor);
  }
}
