package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.thermal.Samples.coolant;
import static io.fleetscope.flink.thermal.Samples.pdu;
import static io.fleetscope.flink.thermal.Samples.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FacilityMonitorsTest {
  private final FacilitySettings cfg = FacilitySettings.defaults();
  private final Map<String, String> loopLabels = Map.of("cluster", "c1", "device", "cdu-1", "loop", "loop-a");

  @Test
  void healthyLoopNeverAlerts() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(cfg);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of());
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      all.addAll(m.onReading(coolant(i * 10).setFlowLpm(118.0 + i % 5).build(), limits, loopLabels));
    }
    assertThat(all).isEmpty();
  }

  @Test
  void flowDropFiresAtOnceAndResolvesPastHysteresis() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(cfg);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of("flow_min_lpm", "100"));
    assertThat(limits.flowMinLpm()).isEqualTo(100.0);
    assertThat(m.onReading(coolant(0).build(), limits, loopLabels)).isEmpty();
    List<AlertChange> fire = m.onReading(coolant(10).setFlowLpm(80.0).build(), limits, loopLabels);
    assertThat(fire).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("CoolantFlowLow");
      assertThat(c.firing()).isTrue();
      assertThat(c.value()).isEqualTo(80.0);
      assertThat(c.labels()).containsEntry("loop", "loop-a").containsEntry("device", "cdu-1");
      assertThat(c.description()).contains("80.0 l/min").contains("100.0 l/min");
    });
    assertThat(m.onReading(coolant(20).setFlowLpm(101.0).build(), limits, loopLabels))
        .as("just above the minimum but inside the 2% hysteresis").isEmpty();
    assertThat(m.onReading(coolant(30).setFlowLpm(110.0).build(), limits, loopLabels))
        .singleElement().satisfies(c -> assertThat(c.firing()).isFalse());
  }

  @Test
  void hotSupplyAndLeak() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(cfg);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of("supply_max_c", "bogus"));
    assertThat(limits.supplyMaxC()).as("unparseable attribute falls back to the default").isEqualTo(40.0);
    List<AlertChange> c = m.onReading(coolant(0).setSupplyTempC(42.5).setLeakDetected(true).build(), limits, loopLabels);
    assertThat(c).extracting(AlertChange::alertname, AlertChange::severity)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("CoolantSupplyHot", "warning"),
            org.assertj.core.groups.Tuple.tuple("CoolantLeak", "critical"));
    List<AlertChange> r = m.onReading(coolant(10).setSupplyTempC(35.0).setLeakDetected(false).build(), limits, loopLabels);
    assertThat(r).extracting(AlertChange::firing).containsExactly(false, false);
    assertThat(m.anyFiring()).isFalse();
  }

  @Test
  void rackPowerSumsOutletsButPrefersInlets() {
    RackPowerTracker rack = new RackPowerTracker(60_000);
    rack.add(pdu(0, "pdu-a", "1", 4000).build());
    rack.add(pdu(0, "pdu-a", "2", 4500).build());
    rack.add(pdu(0, "pdu-b", "1", 3000).build());
    assertThat(rack.kw(t(5))).isCloseTo(11.5, within(1e-9));
    // pdu-b now also reports its inlet (total incl. overhead): the inlet replaces its outlets
    rack.add(PduReading.newBuilder(pdu(5, "pdu-b", null, 3200).build()).setOutlet(null).setInlet("I1").build());
    assertThat(rack.kw(t(10))).isCloseTo(4.0 + 4.5 + 3.2, within(1e-9));
    // a newer reading replaces an older one of the same outlet; an older one is ignored
    rack.add(pdu(20, "pdu-a", "1", 5000).build());
    rack.add(pdu(15, "pdu-a", "1", 1).build());
    assertThat(rack.kw(t(20))).isCloseTo(5.0 + 4.5 + 3.2, within(1e-9));
    // after 60 s without readings nothing counts
    assertThat(rack.kw(t(200))).isNull();
  }

  @Test
  void rackOverCoolingFiresAndResolvesBelowHysteresis() {
    RackPowerMonitor m = new RackPowerMonitor(cfg);
    Map<String, String> l = Map.of("cluster", "c1", "rack", "R1");
    double cap = cfg.capacityKw("rear-door", null);
    assertThat(cap).isEqualTo(30.0);
    assertThat(m.onRackPower(29.0, cap, l)).isEmpty();
    assertThat(m.onRackPower(31.0, cap, l)).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("RackPowerOverCooling");
      assertThat(c.firing()).isTrue();
      assertThat(c.description()).contains("31.0 kW").contains("30.0 kW");
    });
    assertThat(m.onRackPower(29.8, cap, l)).as("inside 2% hysteresis").isEmpty();
    assertThat(m.onRackPower(29.0, cap, l)).singleElement().satisfies(c -> assertThat(c.firing()).isFalse());
  }

  @Test
  void coolingCapacityFromInventoryElseByType() {
    assertThat(cfg.capacityKw("air", 22.0)).isEqualTo(22.0);
    assertThat(cfg.capacityKw("Direct_Liquid", null)).isEqualTo(80.0);
    assertThat(cfg.capacityKw("DLC", null)).isEqualTo(80.0);
    assertThat(cfg.capacityKw("immersion", null)).isEqualTo(150.0);
    assertThat(cfg.capacityKw(null, null)).isEqualTo(15.0);
    assertThat(cfg.capacityKw("unknown-type", null)).isEqualTo(15.0);
  }
}
