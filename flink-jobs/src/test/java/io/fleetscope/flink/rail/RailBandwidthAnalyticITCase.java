package io.fleetscope.flink.rail;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class RailBandwidthAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  @Test
  void healthyFleetYieldsRailBandwidthAndNoAnomaly() throws Exception {
    List<JsonLines.Line> out = Runs.run(RailScenario.records(false), cfg, List.of(new RailBandwidthAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(Runs.anomalies(out)).isEmpty();
    List<RailBandwidth> rails = out.stream().filter(l -> l.value() instanceof RailBandwidth).map(l -> (RailBandwidth) l.value()).toList();
    assertThat(rails).hasSize(10 * 4);
    for (RailBandwidth r : rails) {
      assertThat(r.getPortsTotal()).isEqualTo(2);
      assertThat(r.getLineRateGbps()).isEqualTo(800.0);
      if (r.getWindowStart() > t(0)) { // the first window has 9 deltas only
        assertThat(r.getTxGbps()).isCloseTo(400.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.getRxGbps()).isCloseTo(200.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.getUtilisation()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.getImbalance()).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-9));
      }
    }
    assertThat(out).filteredOn(l -> l.topic().equals("fleet.rail.bw.v1")).extracting(JsonLines.Line::key).contains("c1/0", "c1/3");
  }

  @Test
  void faultsFireWithinOneWindowAndResolveAfterTheHold() throws Exception {
    List<SpecificRecord> in = new ArrayList<>(RailScenario.records(true));
    in.add(Fleet.ib("n1", 0, t(5), 9999).setXmitBytes(-5L).build());                 // impossible
    in.add(Fleet.ib("n1", 0, Runs.CLOCK.now() + 86_400_000L, 9998).build());         // a day in the future
    List<JsonLines.Line> out = Runs.run(in, cfg, List.of(new RailBandwidthAnalytic()), RuntimeExecutionMode.BATCH);
    List<String> got = Runs.anomalies(out).stream().map(Runs::brief).sorted().toList();
    // recovered by 49 s (IbLinkDegraded, IbSymbolErrors: the windows ending with the sample at 49 s are
    // clean) and 60 s (RailImbalance, a window end): resolved 30 s later (rail.resolve_hold_ms).
    // IbLinkDown is decided per sample on the fast path: the first sample down, the first sample up.
    assertThat(got).containsExactlyInAnyOrder(
        "IbLinkDegraded firing {alertname=IbLinkDegraded, cluster=c1, device=mlx5_3, node=n2, port=1, rack=r1, rail=3, severity=warning} ts=" + t(39),
        "IbLinkDegraded resolved {alertname=IbLinkDegraded, cluster=c1, device=mlx5_3, node=n2, port=1, rack=r1, rail=3, severity=warning} ts=" + t(79),
        "IbLinkDown firing {alertname=IbLinkDown, cluster=c1, device=mlx5_3, node=n2, port=1, rack=r1, rail=3, severity=critical} ts=" + t(30), // fast path: the first sample down
        "IbLinkDown resolved {alertname=IbLinkDown, cluster=c1, device=mlx5_3, node=n2, port=1, rack=r1, rail=3, severity=critical} ts=" + t(50), // and the first sample up
        "IbSymbolErrors firing {alertname=IbSymbolErrors, cluster=c1, device=mlx5_1, node=n1, port=1, rack=r1, rail=1, severity=warning} ts=" + t(29),
        "IbSymbolErrors resolved {alertname=IbSymbolErrors, cluster=c1, device=mlx5_1, node=n1, port=1, rack=r1, rail=1, severity=warning} ts=" + t(79),
        "RailImbalance firing {alertname=RailImbalance, cluster=c1, rail=3, severity=warning} ts=" + t(40),
        "RailImbalance resolved {alertname=RailImbalance, cluster=c1, rail=3, severity=warning} ts=" + t(90),
        "RailImbalance firing {alertname=RailImbalance, cluster=c1, layout=shared-hca, node=n3, rack=r2, severity=warning} ts=" + t(-60));
    Anomaly layout = Runs.anomalies(out).stream().filter(a -> "shared-hca".equals(a.getLabels().get("layout"))).findFirst().orElseThrow();
    assertThat(layout.getAnnotations().get("description")).contains("8 GPUs but only 4 rails");
    assertThat(layout.getAnnotations().get("runbook_url")).isEqualTo("docs/runbooks.md#railimbalance");
    // the counter reset of n1 rail 0 at 35 s does not disturb rail 0
    RailBandwidth rail0 = out.stream().filter(l -> l.value() instanceof RailBandwidth r && r.getRail() == 0 && r.getWindowEnd() == t(40))
        .map(l -> (RailBandwidth) l.value()).findFirst().orElseThrow();
    assertThat(rail0.getTxGbps()).isCloseTo(400.0, org.assertj.core.data.Offset.offset(1e-6));
    RailBandwidth rail3 = out.stream().filter(l -> l.value() instanceof RailBandwidth r && r.getRail() == 3 && r.getWindowEnd() == t(40))
        .map(l -> (RailBandwidth) l.value()).findFirst().orElseThrow();
    assertThat(rail3.getPortsUp()).isEqualTo(1);
    assertThat(rail3.getDegradedPorts()).containsExactly("n2/mlx5_3/1");
    List<DeadLetter> dlq = out.stream().filter(l -> l.value() instanceof DeadLetter).map(l -> (DeadLetter) l.value()).toList();
    assertThat(dlq).extracting(DeadLetter::getReason).anyMatch(r -> r.startsWith("negative xmit_bytes"))
        .anyMatch(r -> r.contains("in the future"));
    assertThat(dlq).allMatch(d -> d.getSourceTopic().equals("fleet.ib.v1") && d.getStage().equals("flink-jobs"));
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    List<SpecificRecord> in = RailScenario.records(true);
    List<Anomaly> batch = Runs.anomalies(Runs.run(in, cfg, List.of(new RailBandwidthAnalytic()), RuntimeExecutionMode.BATCH));
    // the windowed analytics: whatever the arrival order
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 8, 42), cfg, List.of(new RailBandwidthAnalytic()), RuntimeExecutionMode.STREAMING))
        .stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList();
    assertThat(live).isEqualTo(batch.stream().filter(a -> !Runs.fastPath(a)).map(Runs::brief).sorted().toList()).hasSize(7);
    // the fast path (IbLinkDown): each port's samples in their order (a node's records share a partition)
    List<String> liveFast = Runs.anomalies(Runs.run(in, cfg, List.of(new RailBandwidthAnalytic()), RuntimeExecutionMode.STREAMING))
        .stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList();
    assertThat(liveFast).isEqualTo(batch.stream().filter(Runs::fastPath).map(Runs::identity).sorted().toList()).hasSize(2);
  }
}
