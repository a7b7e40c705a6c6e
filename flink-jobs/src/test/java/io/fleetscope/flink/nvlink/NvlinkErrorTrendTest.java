package io.fleetscope.flink.nvlink;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AnomalyFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NvlinkErrorTrendTest {
  private static final AnomalyFactory F = new AnomalyFactory("nvlink");
  /** 5 min window, 10 errors/min to fire, below 5/min for 10 min to resolve. */
  private static final NvlinkSettings C = NvlinkSettings.defaults();
  private final NvlinkErrorTrend trend = new NvlinkErrorTrend();

  static NvlinkSample s(long ts, long replay, long crc) {
    return NvlinkSample.newBuilder().setTs(ts).setCluster("c1").setNode("n1").setAgentSeq(ts).setGpu(2).setLink(7)
        .setState("active").setReplayErrors(replay).setRecoveryErrors(0L).setCrcErrors(crc).build();
  }

  /** Feeds a sample every 10 s from {@code from} to {@code to} (seconds) with errors growing {@code perMin}. */
  private List<Anomaly> run(long from, long to, long base, double perMin) {
    List<Anomaly> out = new ArrayList<>();
    for (long sec = from; sec <= to; sec += 10) {
      long e = base + Math.round((sec - from) * perMin / 60.0);
      Anomaly a = trend.onSample(s(t(sec), e, 0), C, "r1", F);
      if (a != null) out.add(a);
    }
    return out;
  }

  @Test
  void aLinkRetryingFasterThanTheLimitFiresOnceAndResolvesAfterTheHold() {
    assertThat(run(0, 600, 100, 2)).as("2/min: below the limit").isEmpty();
    List<Anomaly> fire = run(610, 1200, 120, 30);
    assertThat(fire).hasSize(1);
    Anomaly a = fire.get(0);
    assertThat(a.getStatus()).isEqualTo("firing");
    assertThat(a.getLabels()).containsEntry("alertname", "NvlinkErrorsRising").containsEntry("severity", "warning")
        .containsEntry("gpu", "2").containsEntry("link", "7");
    assertThat(a.getValue()).isGreaterThanOrEqualTo(10.0);
    // a minute of 30/min on top of a 2/min baseline: the 5-min rate passes 10/min within ~2 min
    assertThat(a.getTs()).isBetween(t(610), t(610 + 180));
    // counters stop growing: the window rate falls below 5/min after ~3 min, then 10 min of hold
    long last = 120 + Math.round(590 * 30 / 60.0);
    List<Anomaly> quiet = run(1210, 2400, last, 0);
    assertThat(quiet).hasSize(1);
    assertThat(quiet.get(0).getStatus()).isEqualTo("resolved");
    assertThat(quiet.get(0).getTs()).isBetween(t(1210 + 600), t(1210 + 300 + 600 + 10));
  }

  @Test
  void dcgmAllLinksTotalsFireForTheGpuNamingNoSingleLink() {
    // dcgm-exporter's DCGM_FI_DEV_NVLINK_*_TOTAL as the agent sends them: link -1, FLIT/data CRC and replays
    Anomaly fired = null;
    for (long sec = 0; sec <= 600 && fired == null; sec += 10) {
      long e = sec / 2; // 30 per minute
      fired = trend.onSample(NvlinkSample.newBuilder().setTs(t(sec)).setCluster("c1").setNode("n1").setAgentSeq(sec)
          .setSource("dcgm-exporter").setGpu(3).setLink(-1).setCrcFlitErrors(e).setCrcDataErrors(0L).setReplayErrors(e).build(),
          C, "r1", F);
    }
    assertThat(fired).isNotNull();
    assertThat(fired.getLabels()).containsEntry("link", "-1").containsEntry("gpu", "3");
    assertThat(fired.getAnnotations().get("summary")).startsWith("NVLink errors rising on n1 GPU 3 NVLinks (all links): ");
    assertThat(fired.getAnnotations().get("description")).contains("errors of the links (the source reports them together) of GPU 3");
  }

  @Test
  void aCounterResetIsNotANegativeRateNorAFault() {
    run(0, 600, 5000, 1);
    assertThat(run(610, 1200, 0, 1)).isEmpty();
    assertThat(trend.firing()).isFalse();
  }

  @Test
  void aSampleWithoutErrorCountersDecidesNothing() {
    NvlinkSample noCounters = NvlinkSample.newBuilder().setTs(t(0)).setCluster("c1").setNode("n1").setAgentSeq(1).setGpu(0)
        .setLink(0).setState("active").build();
    assertThat(NvlinkErrorTrend.errors(noCounters)).isEqualTo(-1);
    assertThat(trend.onSample(noCounters, C, null, F)).isNull();
  }

  @Test
  void theModelTableMatchesTheLongestNameCaseInsensitively() {
    assertThat(C.expectedLinks("NVIDIA H100 80GB HBM3")).isEqualTo(18);
    assertThat(C.expectedLinks("NVIDIA H200")).isEqualTo(18);
    assertThat(C.expectedLinks("NVIDIA H800")).isEqualTo(8);
    assertThat(C.expectedLinks("NVIDIA A100-SXM4-80GB")).isEqualTo(12);
    assertThat(C.expectedLinks("Tesla T4")).isNull();
    NvlinkSettings s = new NvlinkSettings(Map.of("h100", 4, "H100 80GB HBM3", 18), 300_000, 10, 0.5, 0);
    assertThat(s.expectedLinks("NVIDIA H100 80GB HBM3")).isEqualTo(18);
    assertThat(s.expectedLinks("NVIDIA H100 PCIe")).isEqualTo(4);
  }
}
