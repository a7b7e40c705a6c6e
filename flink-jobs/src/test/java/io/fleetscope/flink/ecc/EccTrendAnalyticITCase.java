package io.fleetscope.flink.ecc;

import static io.fleetscope.flink.ecc.EccScenario.m;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class EccTrendAnalyticITCase {
  private static final String G1 = "{alertname=%s, cluster=c1, gpu=1, node=n1, rack=r7, severity=%s%s}";

  @Test
  void healthyGpusYieldTrendsAndNoAnomaly() throws Exception {
    List<JsonLines.Line> out = Runs.run(EccScenario.records(false), EccScenario.config(), List.of(new EccTrendAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(Runs.anomalies(out)).isEmpty();
    List<EccTrend> trends = out.stream().filter(l -> l.value() instanceof EccTrend).map(l -> (EccTrend) l.value()).toList();
    assertThat(trends).hasSize(360).allMatch(t -> t.getSbeRatePerH() == 0.0 && t.getXidCount() == 0);
  }

  @Test
  void eccFaultsFireAtOnceAndResolve() throws Exception {
    List<JsonLines.Line> out = Runs.run(EccScenario.records(true), EccScenario.config(), List.of(new EccTrendAnalytic()), RuntimeExecutionMode.BATCH);
    List<String> got = Runs.anomalies(out).stream().map(Runs::brief).sorted().toList();
    assertThat(got).containsExactlyInAnyOrder(
        b("GpuEccCorrectableRising", "firing", "warning", "", m(90)),
        b("GpuEccCorrectableRising", "resolved", "warning", "", m(129)),
        b("GpuEccUncorrectable", "firing", "critical", "", m(150)),
        b("GpuEccUncorrectable", "resolved", "critical", "", m(160)), // dbe_quiet_ms after the error (fast path)
        b("GpuRowRemapFailure", "firing", "warning", ", state=pending", m(150)),
        b("GpuRowRemapFailure", "resolved", "warning", ", state=pending", m(170)),
        b("GpuXid", "firing", "critical", ", xid=79, xid_name=ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", m(60) + 1000),
        b("GpuXid", "resolved", "critical", ", xid=79, xid_name=ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", m(65) + 1000),
        b("GpuXid", "firing", "critical", ", xid=48, xid_name=ROBUST_CHANNEL_GPU_ECC_DBE", m(150) + 500),
        b("GpuXid", "resolved", "critical", ", xid=48, xid_name=ROBUST_CHANNEL_GPU_ECC_DBE", m(155) + 500));
    Anomaly x79 = Runs.anomalies(out).stream().filter(a -> "79".equals(a.getLabels().get("xid"))).findFirst().orElseThrow();
    assertThat(x79.getAnnotations().get("summary")).contains("GPU has fallen off the bus");
    assertThat(x79.getAnnotations().get("runbook_url")).isEqualTo("docs/runbooks.md#gpuxid");
    EccTrend at119 = trend(out, 1, m(119));
    assertThat(at119.getSbeRatePerH()).isEqualTo(3000.0);
    assertThat(at119.getSbeRateTrend()).isPositive();
    assertThat(trend(out, 1, m(151)).getXidCount()).isEqualTo(1L); // the duplicate XID 48 counted once; 79 left the window
    assertThat(trend(out, 1, m(100)).getXidCount()).isEqualTo(1L);
    assertThat(trend(out, 0, m(119)).getSbeRatePerH()).isEqualTo(0.0);
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    var in = EccScenario.records(true);
    List<Anomaly> batch = Runs.anomalies(Runs.run(in, EccScenario.config(), List.of(new EccTrendAnalytic()), RuntimeExecutionMode.BATCH));
    // the windowed analytics: whatever the arrival order
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 3, 7), EccScenario.config(), List.of(new EccTrendAnalytic()), RuntimeExecutionMode.STREAMING))
        .stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList();
    assertThat(live).isEqualTo(batch.stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList()).hasSize(2);
    // the fast path: each GPU's records in their order (a node's records share a partition)
    List<String> liveFast = Runs.anomalies(Runs.run(in, EccScenario.config(), List.of(new EccTrendAnalytic()), RuntimeExecutionMode.STREAMING))
        .stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList();
    assertThat(liveFast).isEqualTo(batch.stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList()).hasSize(8);
  }

  private static EccTrend trend(List<JsonLines.Line> out, int gpu, long ts) {
    return out.stream().filter(l -> l.value() instanceof EccTrend t && t.getGpu() == gpu && t.getTs() == ts)
        .map(l -> (EccTrend) l.value()).findFirst().orElseThrow();
  }

  private static String b(String name, String status, String sev, String extra, long ts) {
    return name + " " + status + " " + String.format(G1, name, sev, extra).replace("rack=r7, severity=" + sev + extra,
        "rack=r7, severity=" + sev + extra) + " ts=" + ts;
  }
}
