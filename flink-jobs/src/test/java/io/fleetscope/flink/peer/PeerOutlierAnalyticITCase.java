package io.fleetscope.flink.peer;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class PeerOutlierAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  /**
   * Job "llm" on n1..n2 (16 H100s) at 65 C +- 1, 600 W, 1980 MHz; one 400G port per node n1..n8 on
   * rail 0 sending 350 Gb/s. Samples every 10 s for 15 minutes. Faults: GPU 5 of n2 runs 9 C hotter
   * at the same power from 300 s to 660 s (a failing pump or cold plate); n7's port sends only
   * 150 Gb/s from 300 s to 660 s (a weak cable).
   */
  static List<SpecificRecord> scenario(boolean faults) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      in.add(Fleet.node("n" + n, "r1", n <= 2 ? 8 : 0, 1, t(-60)));
    }
    for (int n = 1; n <= 2; n++) {
      in.add(JobAllocations.newBuilder().setTs(t(-60)).setCluster("c1").setNode("n" + n).setAgentSeq(1)
          .setAllocations(List.of(GpuAllocation.newBuilder().setJob("llm").setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build()))
          .build());
    }
    long seq = 0;
    long[] tx = new long[9];
    for (int s = 0; s < 900; s += 10) {
      boolean fault = faults && s >= 300 && s < 660;
      for (int n = 1; n <= 2; n++) {
        for (int g = 0; g < 8; g++) {
          double temp = 64 + ((n * 8 + g + s / 10) % 3) + (fault && n == 2 && g == 5 ? 9 : 0);
          in.add(Fleet.gpu("n" + n, g, t(s), seq++).setTempC(temp).setPowerW(600.0 + (g % 2)).setSmClockMhz(1980.0).build());
        }
      }
      for (int n = 1; n <= 8; n++) {
        double gbps = fault && n == 7 ? 150 : 350 + n;
        tx[n] += (long) (gbps * 1e9 / 8 * 10);
        in.add(Fleet.ib("n" + n, 0, t(s), seq++).setXmitBytes(tx[n]).setXmitWait(1000L * s).build());
      }
    }
    return in;
  }

  @Test
  void healthyPeersYieldNothing() throws Exception {
    assertThat(Runs.anomalies(Runs.run(scenario(false), cfg, List.of(new PeerOutlierAnalytic()), RuntimeExecutionMode.BATCH)))
        .isEmpty();
  }

  @Test
  void hotGpuAndSlowLinkFireAfterThreeWindowsAndResolveOnRecovery() throws Exception {
    List<String> got = Runs.anomalies(Runs.run(scenario(true), cfg, List.of(new PeerOutlierAnalytic()), RuntimeExecutionMode.BATCH))
        .stream().map(Runs::brief).toList();
    // onset at 300 s: the windows ending 360, 420, 480 depart; the alert fires at the third (480 s).
    // recovery at 660 s: the window ending 720 no longer departs.
    assertThat(got).containsExactlyInAnyOrder(
        "GpuPeerOutlier firing {alertname=GpuPeerOutlier, cluster=c1, gpu=5, metric=temp_c, node=n2, peer_group=job=llm, rack=r1, severity=warning} ts=" + t(480),
        "GpuPeerOutlier resolved {alertname=GpuPeerOutlier, cluster=c1, gpu=5, metric=temp_c, node=n2, peer_group=job=llm, rack=r1, severity=warning} ts=" + t(720),
        "LinkPeerOutlier firing {alertname=LinkPeerOutlier, cluster=c1, device=mlx5_0, metric=tx_gbps, node=n7, peer_group=rail=0, port=1, rack=r1, rail=0, severity=warning} ts=" + t(480),
        "LinkPeerOutlier resolved {alertname=LinkPeerOutlier, cluster=c1, device=mlx5_0, metric=tx_gbps, node=n7, peer_group=rail=0, port=1, rack=r1, rail=0, severity=warning} ts=" + t(720));
  }

  @Test
  void liveStreamingRunGivesTheSameAnomaliesAsBatch() throws Exception {
    List<SpecificRecord> in = scenario(true);
    List<String> batch = Runs.anomalies(Runs.run(in, cfg, List.of(new PeerOutlierAnalytic()), RuntimeExecutionMode.BATCH))
        .stream().map(Runs::brief).sorted().toList();
    List<String> live = Runs.anomalies(Runs.run(Runs.jitter(in, 8, 5), cfg, List.of(new PeerOutlierAnalytic()),
        RuntimeExecutionMode.STREAMING)).stream().map(Runs::brief).sorted().toList();
    assertThat(live).hasSize(4).isEqualTo(batch);
  }
}
