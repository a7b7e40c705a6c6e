package io.fleetscope.flink.nvlink;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

/**
 * The NVLink analytic on a MiniCluster: one H100 node (18 links per GPU from the model table), links
 * 0, 2, 5 and 17 of two GPUs sampled every 10 s for 25 minutes. GPU 0 link 5 is inactive from 100 s to 190 s; GPU 1
 * link 2 retries 30 times a minute from 300 s to 600 s; every link's traffic stops at 700 s (the
 * job ended: not a fault).
 */
class NvlinkAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  static List<SpecificRecord> records() {
    List<SpecificRecord> in = new ArrayList<>();
    in.add(Fleet.node("n1", "r1", 8, 0, t(-60)));
    long seq = 0;
    for (long sec = 0; sec <= 1500; sec += 10) {
      for (int gpu = 0; gpu < 2; gpu++) {
        for (int link : new int[] {0, 2, 5, 17}) {
          boolean down = gpu == 0 && link == 5 && sec >= 100 && sec < 190;
          long replay = gpu == 1 && link == 2 ? Math.max(0, Math.min(sec, 600) - 300) / 2 : 0; // 30/min for 5 min
          long bytes = Math.min(sec, 700) * 20_000_000_000L; // 20 GB/s until the job ends
          in.add(NvlinkSample.newBuilder().setTs(t(sec)).setCluster("c1").setNode("n1").setAgentSeq(++seq)
              .setSource("nvidia-smi-nvlink").setGpu(gpu).setUuid("GPU-n1-" + gpu).setLink(link)
              .setState(down ? "inactive" : "active").setSpeedGbps(down ? null : 26.562)
              .setTxBytes(bytes).setRxBytes(bytes).setReplayErrors(replay).setRecoveryErrors(0L).setCrcErrors(0L).build());
        }
      }
    }
    return in;
  }

  @Test
  void aLinkDownAndALinkRetryingAreTheOnlyAnomalies() throws Exception {
    List<JsonLines.Line> out = Runs.run(records(), cfg, List.of(new NvlinkAnalytic()), RuntimeExecutionMode.BATCH);
    List<Anomaly> all = Runs.anomalies(out);
    List<String> down = all.stream().filter(a -> a.getLabels().get("alertname").equals("NvlinkDown")).map(Runs::brief).sorted().toList();
    assertThat(down).containsExactly(
        "NvlinkDown firing {alertname=NvlinkDown, cluster=c1, gpu=0, link=5, node=n1, rack=r1, severity=critical} ts=" + t(100),
        "NvlinkDown resolved {alertname=NvlinkDown, cluster=c1, gpu=0, link=5, node=n1, rack=r1, severity=critical} ts=" + t(190));
    List<Anomaly> errors = all.stream().filter(a -> a.getLabels().get("alertname").equals("NvlinkErrorsRising")).toList();
    assertThat(errors).extracting(Anomaly::getStatus).containsExactly("firing", "resolved");
    assertThat(errors.get(0).getLabels()).containsEntry("gpu", "1").containsEntry("link", "2").containsEntry("severity", "warning");
    // 30/min on a 0/min window: the 5-minute rate reaches 10/min after ~100 s
    assertThat(errors.get(0).getTs()).isBetween(t(390), t(420));
    // the rate falls below 5/min ~250 s after the retries stop, then 10 minutes of hold
    assertThat(errors.get(1).getTs()).isBetween(t(600 + 240 + 600), t(600 + 280 + 600));
    assertThat(all).hasSize(4);
  }
}
