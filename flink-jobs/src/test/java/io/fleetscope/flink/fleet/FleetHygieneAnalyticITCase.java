package io.fleetscope.flink.fleet;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class FleetHygieneAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  private static JobAllocations jobs(String node, long ts, String job) {
    List<GpuAllocation> a = job == null ? List.of()
        : List.of(GpuAllocation.newBuilder().setJob(job).setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build());
    return JobAllocations.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(ts).setAllocations(a).build();
  }

  /**
   * n1..n3 H100 nodes, n4 an H200 node; GPU and IB samples every 10 s for 10 minutes and a CDU
   * reading every 10 s. Job "uniform" on n2+n3; job "mix" on n1 and, from 120 s to 400 s, n4.
   * Faults: n3 goes silent from 200 s to 500 s; cdu-1 stops at 300 s for good.
   */
  static List<SpecificRecord> scenario(boolean faults) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 1; n <= 3; n++) {
      in.add(Fleet.node("n" + n, "r1", 8, 1, t(-60)));
    }
    InventoryRecord n4 = Fleet.node("n4", "r1", 8, 1, t(-60));
    List<GpuInfo> h200 = new ArrayList<>();
    for (GpuInfo g : n4.getGpus()) {
      h200.add(GpuInfo.newBuilder(g).setModel("NVIDIA H200").build());
    }
    in.add(InventoryRecord.newBuilder(n4).setGpus(h200).build());
    in.add(jobs("n1", t(0), "mix"));
    in.add(jobs("n2", t(0), "uniform"));
    in.add(jobs("n3", t(0), "uniform"));
    if (faults) {
      in.add(jobs("n4", t(120), "mix"));
      in.add(jobs("n4", t(400), null));
    }
    long seq = 0;
    for (int s = 0; s < 600; s += 10) {
      for (int n = 1; n <= 4; n++) {
        if (faults && n == 3 && s >= 200 && s < 500) {
          continue;
        }
        in.add(Fleet.gpu("n" + n, 0, t(s), seq++).build());
        in.add(Fleet.ib("n" + n, 0, t(s), seq++).build());
      }
      if (!faults || s < 300) {
        in.add(CoolantReading.newBuilder().setTs(t(s)).setCluster("c1").setDevice("cdu-1").setAgentSeq(seq++)
            .setLoop("loop-a").setSupplyTempC(30.0).setFlowLpm(100.0).build());
      }
    }
    return in;
  }

  @Test
  void healthyFleetYieldsNothingEvenAtTheEndOfTheInput() throws Exception {
    assertThat(Runs.anomalies(Runs.run(scenario(false), cfg, List.of(new FleetHygieneAnalytic()), RuntimeExecutionMode.BATCH)))
        .isEmpty();
  }

  @Test
  void mixedJobAndSilentSourcesFireAndResolve() throws Exception {
    List<Anomaly> a = Runs.anomalies(Runs.run(scenario(true), cfg, List.of(new FleetHygieneAnalytic()), RuntimeExecutionMode.BATCH));
    // n3's last records at 190 s: stale from 310 s (120 s later, the first tick the fleet reaches
    // it); back at 500 s, regularly from 510 s, resolved 30 s later (stale_resolve_hold_s). cdu-1's
    // last reading at 290 s: stale from 410 s, never back.
    assertThat(a).extracting(Runs::brief).containsExactlyInAnyOrder(
        "JobMixedGpuModels firing {alertname=JobMixedGpuModels, cluster=c1, job=mix, models=NVIDIA H100 80GB HBM3,NVIDIA H200, severity=warning} ts=" + t(120),
        "JobMixedGpuModels resolved {alertname=JobMixedGpuModels, cluster=c1, job=mix, models=NVIDIA H100 80GB HBM3,NVIDIA H200, severity=warning} ts=" + t(400),
        "TelemetryStale firing {alertname=TelemetryStale, cluster=c1, node=n3, rack=r1, severity=warning, stream=gpu} ts=" + t(310),
        "TelemetryStale resolved {alertname=TelemetryStale, cluster=c1, node=n3, rack=r1, severity=warning, stream=gpu} ts=" + t(540),
        "TelemetryStale firing {alertname=TelemetryStale, cluster=c1, node=n3, rack=r1, severity=warning, stream=ib} ts=" + t(310),
        "TelemetryStale resolved {alertname=TelemetryStale, cluster=c1, node=n3, rack=r1, severity=warning, stream=ib} ts=" + t(540),
        "TelemetryStale firing {alertname=TelemetryStale, cluster=c1, device=cdu-1, severity=warning, stream=coolant} ts=" + t(410));
    Anomaly mix = a.stream().filter(x -> x.getLabels().get("alertname").equals("JobMixedGpuModels")).findFirst().orElseThrow();
    assertThat(mix.getAnnotations().get("summary")).contains("bounded by NVIDIA H100 80GB HBM3");
    Anomaly stale = a.stream().filter(x -> "cdu-1".equals(x.getLabels().get("device"))).findFirst().orElseThrow();
    assertThat(stale.getAnnotations().get("description")).contains("silent for 120 s");
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    List<SpecificRecord> in = scenario(true);
    List<String> batch = Runs.anomalies(Runs.run(in, cfg, List.of(new FleetHygieneAnalytic()), RuntimeExecutionMode.BATCH))
        .stream().map(Runs::brief).sorted().toList();
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 8, 9), cfg, List.of(new FleetHygieneAnalytic()),
        RuntimeExecutionMode.STREAMING)).stream().map(Runs::brief).sorted().toList();
    assertThat(live).hasSize(7).isEqualTo(batch);
  }
}
