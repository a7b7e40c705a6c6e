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
        .as("clearly back: the 30 s hold begins").isEmpty();
    assertThat(m.onReading(coolant(50).setFlowLpm(110.0).build(), limits, loopLabels)).isEmpty();
    assertThat(m.onReading(coolant(60).setFlowLpm(110.0).build(), limits, loopLabels))
        .as("clear for 30 s: resolved").singleElement().satisfies(c -> assertThat(c.firing()).isFalse());
  }

  /** Flow alternating 1 l/min either side of its 100 l/min minimum every 10 s reading for 10 minutes. */
  @Test
  void flowHoveringAtItsMinimumIsOneAlertAndARealRecoveryResolvesAfterTheHold() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(cfg);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of("flow_min_lpm", "100"));
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      all.addAll(m.onReading(coolant(i * 10).setFlowLpm(i % 2 == 0 ? 99.0 : 101.0).build(), limits, loopLabels));
    }
    assertThat(all).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("CoolantFlowLow");
      assertThat(c.firing()).isTrue();
    });
    all.clear();
    // the pump is fixed at 600 s: 120 l/min from then on; resolved at 630 s (hold 30 s), not before
    for (int i = 60; i <= 63; i++) {
      all.addAll(m.onReading(coolant(i * 10).setFlowLpm(120.0).build(), limits, loopLabels));
      assertThat(all).as("at %d s", i * 10).hasSize(i < 63 ? 0 : 1);
    }
    assertThat(all.get(0).firing()).isFalse();
    assertThat(m.anyFiring()).isFalse();
  }

  @Test
  void supplyHoveringAtItsMaximumIsOneAlert() {
    CoolantLoopMonitor m = new CoolantLoopMonitor(cfg);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of());
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      all.addAll(m.onReading(coolant(i * 10).setSupplyTempC(i % 2 == 0 ? 40.3 : 39.7).build(), limits, loopLabels));
    }
    assertThat(all).extracting(AlertChange::alertname, AlertChange::firing)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("CoolantSupplyHot", true));
  }

  @Test
  void withoutHoldAndMarginTheSameHoveringFlapsEveryOtherReading() {
    FacilitySettings none = new FacilitySettings(40, 30, 0, 0, 60, Map.of("air", 15.0), "air", 10_000, 0, 0);
    CoolantLoopMonitor m = new CoolantLoopMonitor(none);
    CoolantLoopMonitor.Limits limits = m.limits(Map.of("flow_min_lpm", "100"));
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      all.addAll(m.onReading(coolant(i * 10).setFlowLpm(i % 2 == 0 ? 99.0 : 101.0).build(), limits, loopLabels));
    }
    assertThat(all).as("what the hysteresis prevents").hasSize(60);
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
    assertThat(r).as("the leak resolves when the sensor reads dry; the supply holds")
        .extracting(AlertChange::alertname, AlertChange::firing)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("CoolantLeak", false));
    r = m.onReading(coolant(40).setSupplyTempC(35.0).setLeakDetected(false).build(), limits, loopLabels);
    assertThat(r).extracting(AlertChange::alertname, AlertChange::firing)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("CoolantSupplyHot", false));
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
    assertThat(m.onRackPower(29.0, cap, 0, l)).isEmpty();
    assertThat(m.onRackPower(31.0, cap, 0, l)).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("RackPowerOverCooling");
      assertThat(c.firing()).isTrue();
      assertThat(c.description()).contains("31.0 kW").contains("30.0 kW");
    });
    assertThat(m.onRackPower(29.8, cap, t(10), l)).as("inside 2% hysteresis").isEmpty();
    assertThat(m.onRackPower(29.0, cap, t(20), l)).as("clearly below: the hold begins").isEmpty();
    assertThat(m.onRackPower(30.5, cap, t(30), l)).as("over again: the hold restarts").isEmpty();
    assertThat(m.onRackPower(29.0, cap, t(40), l)).isEmpty();
    assertThat(m.onRackPower(29.0, cap, t(60), l)).isEmpty();
    assertThat(m.onRackPower(29.0, cap, t(70), l)).singleElement().satisfies(c -> assertThat(c.firing()).isFalse());
  }

  @Test
  void rackPowerHoveringAtCapacityIsOneAlert() {
    RackPowerMonitor m = new RackPowerMonitor(cfg);
    Map<String, String> l = Map.of("cluster", "c1", "rack", "R1");
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      all.addAll(m.onRackPower(i % 2 == 0 ? 30.2 : 29.8, 30.0, t(i * 5), l));
    }
    assertThat(all).singleElement().satisfies(c -> assertThat(c.firing()).isTrue());
    assertThat(m.firing()).isTrue();
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
