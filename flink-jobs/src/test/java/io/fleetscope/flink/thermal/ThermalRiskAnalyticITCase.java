package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.ThermalRisk;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class ThermalRiskAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  private static List<ThermalRisk> risks(List<JsonLines.Line> out) {
    return out.stream().filter(l -> l.value() instanceof ThermalRisk).map(l -> (ThermalRisk) l.value()).toList();
  }

  @Test
  void healthyFleetHasOneOkRiskPerGpuAndTickAndNoAnomaly() throws Exception {
    List<JsonLines.Line> out = Runs.run(ThermalScenario.records(ThermalScenario.Faults.none()), cfg,
        List.of(new ThermalRiskAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(Runs.anomalies(out)).isEmpty();
    List<ThermalRisk> r = risks(out);
    assertThat(r).hasSize(5 * 8 * ThermalScenario.MINUTES * 6);
    assertThat(r).allSatisfy(x -> {
      assertThat(x.getLevel()).isEqualTo("ok");
      assertThat(x.getHeadroomC()).isBetween(29.0, 32.0);
    });
    assertThat(r).filteredOn(x -> x.getNode().equals("n5")).extracting(ThermalRisk::getRack).containsOnly("r2");
    assertThat(out).filteredOn(l -> l.topic().equals("fleet.thermal.risk.v1")).isNotEmpty();
  }

  @Test
  void rampHotCoolantAndThrottleFireAndResolve() throws Exception {
    List<SpecificRecord> in = ThermalScenario.records(new ThermalScenario.Faults(true, true, true, false, false, false));
    List<JsonLines.Line> out = Runs.run(in, cfg, List.of(new ThermalRiskAnalytic()), RuntimeExecutionMode.BATCH);
    List<Anomaly> a = Runs.anomalies(out);

    // GPU 3 of n2 heats at 3 C/min from 600 s, at the same power: the risk fires as a warning within
    // 300 s of the onset, long before the slowdown temperature (87 C is reached at 1220 s), and goes up
    // to critical once: one episode each
    List<Anomaly> ramp = a.stream().filter(x -> "n2".equals(x.getLabels().get("node")) && "3".equals(x.getLabels().get("gpu"))).toList();
    assertThat(ramp).extracting(x -> x.getLabels().get("severity") + ":" + x.getStatus())
        .containsExactly("warning:firing", "warning:resolved", "critical:firing");
    assertThat(ramp.get(0).getLabels()).containsEntry("alertname", "GpuThermalThrottleRisk")
        .containsEntry("driver", "gpu_temp").containsEntry("rack", "r1");
    assertThat(ramp.get(0).getTs()).isBetween(t(600), t(900));
    assertThat(ramp.get(0).getAnnotations().get("description")).contains("slowdown predicted in");
    ThermalRisk atFire = risks(out).stream().filter(x -> x.getNode().equals("n2") && x.getGpu() == 3
        && x.getTs() >= ramp.get(0).getTs()).findFirst().orElseThrow();
    assertThat(atFire.getSecondsToThrottle()).isNotNull().isLessThan(600.0);
    assertThat(atFire.getSlopeCPerMin()).isGreaterThan(1.0);

    // hot coolant on loop-b (42 C > 40 C) puts all 8 GPUs of r2 at warning, driver coolant supply,
    // from its first reading at 300 s until resolve_hold_s (60 s) after its recovery at 900 s
    List<Anomaly> r2 = a.stream().filter(x -> "n5".equals(x.getLabels().get("node"))).toList();
    assertThat(r2).hasSize(16);
    assertThat(r2).filteredOn(x -> x.getStatus().equals("firing"))
        .allSatisfy(x -> {
          assertThat(x.getLabels()).containsEntry("driver", "coolant_supply_temp").containsEntry("loop", "loop-b");
          assertThat(x.getTs()).isEqualTo(t(300));
        });
    assertThat(r2).filteredOn(x -> x.getStatus().equals("resolved")).allSatisfy(x -> assertThat(x.getTs()).isEqualTo(t(960)));

    // HW thermal slowdown on n3 GPU 0 from 300 s to 600 s: GpuThrottling (critical) and the risk, each resolved
    // after its hold time (60 s)
    List<Anomaly> thr = a.stream().filter(x -> "GpuThrottling".equals(x.getLabels().get("alertname"))).toList();
    assertThat(thr).extracting(x -> x.getLabels().get("node") + "/" + x.getLabels().get("gpu") + " " + x.getStatus() + " " + x.getTs())
        .containsExactlyInAnyOrder("n3/0 firing " + t(300), "n3/0 resolved " + t(660));
    assertThat(a).filteredOn(x -> "n3".equals(x.getLabels().get("node")) && "GpuThermalThrottleRisk".equals(x.getLabels().get("alertname")))
        .extracting(x -> x.getLabels().get("driver") + " " + x.getStatus()).containsExactly("throttling firing", "throttling resolved");

    // nobody else
    assertThat(a).extracting(x -> x.getLabels().get("node")).containsOnly("n2", "n3", "n5");
    assertThat(a).allSatisfy(x -> assertThat(x.getAnnotations().get("runbook_url")).startsWith("docs/runbooks.md#gpu"));
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    List<SpecificRecord> in = ThermalScenario.records(new ThermalScenario.Faults(true, true, true, false, false, false));
    List<String> batch = Runs.anomalies(Runs.run(in, cfg, List.of(new ThermalRiskAnalytic()), RuntimeExecutionMode.BATCH))
        .stream().map(Runs::brief).sorted().toList();
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 8, 42), cfg, List.of(new ThermalRiskAnalytic()),
        RuntimeExecutionMode.STREAMING)).stream().map(Runs::brief).sorted().toList();
    assertThat(live).isNotEmpty().isEqualTo(batch);
  }
}
