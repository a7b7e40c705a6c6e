package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Runs;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class FacilityAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();
  private final ThermalScenario.Faults faults = new ThermalScenario.Faults(false, false, true, true, true, true);

  @Test
  void healthySiteYieldsNothing() throws Exception {
    assertThat(Runs.anomalies(Runs.run(ThermalScenario.records(ThermalScenario.Faults.none()), cfg,
        List.of(new FacilityAnalytic()), RuntimeExecutionMode.BATCH))).isEmpty();
  }

  @Test
  void eachFacilityFaultFiresAtOnsetAndResolvesAfterTheHold() throws Exception {
    List<Anomaly> a = Runs.anomalies(Runs.run(ThermalScenario.records(faults), cfg, List.of(new FacilityAnalytic()),
        RuntimeExecutionMode.BATCH));
    // recovered at 900 s: flow, supply and rack power resolve once clearly back for 30 s
    // (facility.coolant_resolve_hold_ms, rack_power_resolve_hold_ms); the leak when the sensor is dry
    assertThat(a).extracting(Runs::brief).containsExactlyInAnyOrder(
        "RackPowerOverCooling firing {alertname=RackPowerOverCooling, cluster=c1, cooling=direct-liquid, device=pdu-1, rack=r1, severity=critical} ts=" + t(600),
        "RackPowerOverCooling resolved {alertname=RackPowerOverCooling, cluster=c1, cooling=direct-liquid, device=pdu-1, rack=r1, severity=critical} ts=" + t(930),
        "CoolantFlowLow firing {alertname=CoolantFlowLow, cluster=c1, device=cdu-1, loop=loop-a, racks=r1, severity=critical} ts=" + t(600),
        "CoolantFlowLow resolved {alertname=CoolantFlowLow, cluster=c1, device=cdu-1, loop=loop-a, racks=r1, severity=critical} ts=" + t(930),
        "CoolantLeak firing {alertname=CoolantLeak, cluster=c1, device=cdu-1, loop=loop-a, racks=r1, severity=critical} ts=" + t(400),
        "CoolantLeak resolved {alertname=CoolantLeak, cluster=c1, device=cdu-1, loop=loop-a, racks=r1, severity=critical} ts=" + t(500),
        "CoolantSupplyHot firing {alertname=CoolantSupplyHot, cluster=c1, device=cdu-2, loop=loop-b, racks=r2, severity=warning} ts=" + t(300),
        "CoolantSupplyHot resolved {alertname=CoolantSupplyHot, cluster=c1, device=cdu-2, loop=loop-b, racks=r2, severity=warning} ts=" + t(930));
    Anomaly rack = a.stream().filter(x -> x.getLabels().get("alertname").equals("RackPowerOverCooling")
        && x.getStatus().equals("firing")).findFirst().orElseThrow();
    assertThat(rack.getValue()).isEqualTo(44.0);
    assertThat(rack.getAnnotations().get("description")).contains("44.0 kW").contains("40.0 kW");
    assertThat(rack.getAnnotations().get("runbook_url")).isEqualTo("docs/runbooks.md#rackpowerovercooling");
    Anomaly flow = a.stream().filter(x -> x.getLabels().get("alertname").equals("CoolantFlowLow")
        && x.getStatus().equals("resolved")).findFirst().orElseThrow();
    assertThat(flow.getStartsAt()).isEqualTo(t(600));
    assertThat(flow.getEndsAt()).isEqualTo(t(930));
    assertThat(flow.getAnnotations().get("description")).as("limit from the CDU's inventory attributes")
        .contains("minimum 50.0 l/min");
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    List<SpecificRecord> in = ThermalScenario.records(faults);
    List<Anomaly> batch = Runs.anomalies(Runs.run(in, cfg, List.of(new FacilityAnalytic()), RuntimeExecutionMode.BATCH));
    // the windowed analytics: whatever the arrival order
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 8, 7), cfg, List.of(new FacilityAnalytic()),
        RuntimeExecutionMode.STREAMING)).stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList();
    assertThat(live).hasSize(6).isEqualTo(batch.stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList());
    // the fast path (CoolantLeak): each loop's readings in their order (a device's records share a partition)
    List<String> liveFast = Runs.anomalies(Runs.run(in, cfg, List.of(new FacilityAnalytic()), RuntimeExecutionMode.STREAMING))
        .stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList();
    assertThat(liveFast).hasSize(2).isEqualTo(batch.stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList());
  }
}
