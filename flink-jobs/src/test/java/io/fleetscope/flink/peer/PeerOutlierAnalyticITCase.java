package io.fleetscope.flink.peer;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuAllocation;
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

class PeerOutlierAnalyticITCase {
  private static final String H100 = "NVIDIA H100 80GB HBM3";
  private static final String H200 = "NVIDIA H200 141GB HBM3e";
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  /**
   * Job "llm" on n1..n2 (16 H100s) at 65 C +- 1, 600 W, 1980 MHz, and on n10 (8 H200s) at 63 C, 640 W,
   * 1830 MHz; job "small" on n9 (8 H100s) at 50 C, 300 W, 1500 MHz until it ends at 600 s (its GPUs
   * idle at 35 C, 80 W, 210 MHz from then on); n11..n13 (24 H100s, rack r2, no job known) at 65 C,
   * 600 W and n14 (8 H100s, r2, no job known) at 50 C, 300 W. One 400G port per node n1..n8 on rail 0:
   * n1, n2 (job llm) send 200 Gb/s, n3..n8 (job "train2") 350 Gb/s. Samples every 10 s for 15 minutes.
   * Faults: GPU 5 of n2 runs 9 C hotter at the same power from 300 s to 660 s (a failing pump or cold
   * plate); n7's port sends only 150 Gb/s from 300 s to 660 s (a weak cable). Without like-with-like
   * groups, n10's clocks (another model), n14's power (another load) and the ports of n1, n2 (another
   * job's traffic) would be outliers too.
   */
  static List<SpecificRecord> scenario(boolean faults) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 1; n <= 14; n++) {
      InventoryRecord node = Fleet.node("n" + n, n <= 10 ? "r1" : "r2", n <= 2 || n >= 9 ? 8 : 0, n <= 8 ? 1 : 0, t(-60));
      if (n == 10) {
        node.getGpus().forEach(g -> g.setModel(H200));
      }
      in.add(node);
    }
    for (int n = 1; n <= 10; n++) {
      String job = n <= 2 || n == 10 ? "llm" : n == 9 ? "small" : "train2";
      in.add(JobAllocations.newBuilder().setTs(t(-60)).setCluster("c1").setNode("n" + n).setAgentSeq(1)
          .setAllocations(List.of(GpuAllocation.newBuilder().setJob(job).setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build()))
          .build());
    }
    in.add(JobAllocations.newBuilder().setTs(t(600)).setCluster("c1").setNode("n9").setAgentSeq(2)
        .setAllocations(List.of()).build());
    long seq = 0;
    long[] tx = new long[9];
    for (int s = 0; s < 900; s += 10) {
      boolean fault = faults && s >= 300 && s < 660;
      for (int n = 1; n <= 14; n++) {
        if (n >= 3 && n <= 8) {
          continue;
        }
        for (int g = 0; g < 8; g++) {
          double noise = (n * 8 + g + s / 10) % 3;
          var b = Fleet.gpu("n" + n, g, t(s), seq++);
          if (n <= 2 || (n >= 11 && n <= 13)) {
            b.setTempC(64 + noise + (fault && n == 2 && g == 5 ? 9 : 0)).setPowerW(600.0 + (g % 2)).setSmClockMhz(1980.0);
          } else if (n == 10) {
            b.setModel(H200).setTempC(62 + noise).setPowerW(640.0 + (g % 2)).setSmClockMhz(1830.0);
          } else if (n == 9 && s < 600) {
            b.setTempC(49 + noise).setPowerW(300.0 + (g % 2)).setSmClockMhz(1500.0);
          } else if (n == 9) {
            b.setTempC(34 + noise).setPowerW(80.0 + (g % 2)).setSmClockMhz(210.0);
          } else {
            b.setTempC(49 + noise).setPowerW(300.0 + (g % 2)).setSmClockMhz(1500.0);
          }
          in.add(b.build());
        }
      }
      for (int n = 1; n <= 8; n++) {
        double gbps = fault && n == 7 ? 150 : n <= 2 ? 200 + n : 350 + n;
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
    // recovery at 660 s: the window ending 720 is clearly back, and resolves once the one ending 780
    // is too (resolve_hold_s 60). Only like is compared with like: nothing else fires.
    assertThat(got).containsExactlyInAnyOrder(
        "GpuPeerOutlier firing {alertname=GpuPeerOutlier, cluster=c1, gpu=5, metric=temp_c, node=n2, peer_group=job=llm model=" + H100 + ", rack=r1, severity=warning} ts=" + t(480),
        "GpuPeerOutlier resolved {alertname=GpuPeerOutlier, cluster=c1, gpu=5, metric=temp_c, node=n2, peer_group=job=llm model=" + H100 + ", rack=r1, severity=warning} ts=" + t(780),
        "LinkPeerOutlier firing {alertname=LinkPeerOutlier, cluster=c1, device=mlx5_0, metric=tx_gbps, node=n7, peer_group=rail=0 job=train2, port=1, rack=r1, rail=0, severity=warning} ts=" + t(480),
        "LinkPeerOutlier resolved {alertname=LinkPeerOutlier, cluster=c1, device=mlx5_0, metric=tx_gbps, node=n7, peer_group=rail=0 job=train2, port=1, rack=r1, rail=0, severity=warning} ts=" + t(780));
  }

  @Test
  void groupedByRackAndRailAloneTheOtherModelLoadAndJobWouldBeOutliers() throws Exception {
    // the same healthy fleet with every metric compared in rack and rail groups too: n14's power and
    // clocks (another load) make it an outlier among the GPUs of rack r2, whose jobs are not known.
    AnalyticsConfig all = cfg.with("peer", "job_only_metrics", List.of());
    List<String> got = Runs.anomalies(Runs.run(scenario(false), all, List.of(new PeerOutlierAnalytic()), RuntimeExecutionMode.BATCH))
        .stream().filter(a -> a.getStatus().equals("firing")).map(a -> a.getLabels().get("node") + " " + a.getLabels().get("metric"))
        .distinct().toList();
    assertThat(got).containsExactlyInAnyOrder("n14 power_w", "n14 sm_clock_mhz");
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

  /**
   * A job on a1, a2 (one 400G port each on rail 0, busy: 300 Gb/s and 60,000 xmit-wait ticks/s) stops
   * at 600 s (its allocation record says so, its ports go idle); i1..i6 are idle without a job all
   * along. The ticks before 600 s must be judged with the job running: the two busy ports form their
   * job's group (too small to compare), not outliers among the idle ports of the rail. A bounded run
   * sees the stop record before any port sample, a live one may receive it before the ticks before it
   * are evaluated.
   */
  @Test
  void aStoppingJobsLinksAreJudgedWithTheirJobUntilItStops() throws Exception {
    List<SpecificRecord> in = new ArrayList<>();
    List<String> nodes = List.of("a1", "a2", "i1", "i2", "i3", "i4", "i5", "i6");
    for (String n : nodes) {
      in.add(Fleet.node(n, "r1", 0, 1, t(-60)));
    }
    for (String n : List.of("a1", "a2")) {
      in.add(JobAllocations.newBuilder().setTs(t(-60)).setCluster("c1").setNode(n).setAgentSeq(1)
          .setAllocations(List.of(GpuAllocation.newBuilder().setJob("big").setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build()))
          .build());
      in.add(JobAllocations.newBuilder().setTs(t(600)).setCluster("c1").setNode(n).setAgentSeq(2)
          .setAllocations(List.of()).build());
    }
    long seq = 10;
    long[] tx = new long[nodes.size()];
    long[] wait = new long[nodes.size()];
    for (int s = 0; s < 1200; s += 10) {
      for (int i = 0; i < nodes.size(); i++) {
        boolean busy = i < 2 && s < 600;
        tx[i] += busy ? (long) (300e9 / 8 * 10) : 1_000_000L;
        wait[i] += busy ? 600_000L : 2_000L + 10L * i;
        in.add(Fleet.ib(nodes.get(i), 0, t(s), seq++).setXmitBytes(tx[i]).setXmitWait(wait[i]).build());
      }
    }
    assertThat(Runs.anomalies(Runs.run(in, cfg, List.of(new PeerOutlierAnalytic()), RuntimeExecutionMode.BATCH)))
        .map(Runs::brief).isEmpty();
    assertThat(Runs.anomalies(Runs.run(Runs.jitter(in, 8, 5), cfg, List.of(new PeerOutlierAnalytic()),
        RuntimeExecutionMode.STREAMING))).map(Runs::brief).isEmpty();
  }
}
