package io.fleetscope.flink.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PeerGroupDetectorTest {
  private final PeerOutlierSettings cfg = PeerOutlierSettings.defaults();
  private final PeerMetric temp = cfg.gpuMetrics().get(0);
  private final Map<String, Map<String, String>> labels = new HashMap<>();
  private long windowEnd;

  /** The end of the next 60 s window. */
  private long next() {
    windowEnd += 60_000;
    return windowEnd;
  }

  PeerGroupDetectorTest() {
    for (int g = 0; g < 8; g++) {
      labels.put("n1/" + g, Map.of("cluster", "c1", "node", "n1", "gpu", Integer.toString(g)));
    }
  }

  /** Eight GPUs of one job at 65 C +- 1 C; GPU 3 runs {@code extra} hotter. */
  private Map<String, Double> window(Random rnd, double extra) {
    Map<String, Double> v = new HashMap<>();
    for (int g = 0; g < 8; g++) {
      v.put("n1/" + g, 65 + rnd.nextDouble() * 2 - 1 + (g == 3 ? extra : 0));
    }
    return v;
  }

  @Test
  void healthyGroupYieldsNothing() {
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Random rnd = new Random(7);
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 100; w++) {
      all.addAll(d.onWindow(temp, window(rnd, 0), labels, "job=llm", next()));
    }
    assertThat(all).isEmpty();
  }

  @Test
  void sustainedHotGpuFiresOnTheThirdWindowAndResolvesOnRecovery() {
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Random rnd = new Random(11);
    for (int w = 0; w < 5; w++) {
      assertThat(d.onWindow(temp, window(rnd, 0), labels, "job=llm", next())).isEmpty();
    }
    // a failing pump: GPU 3 is 9 C hotter than its peers at the same power
    assertThat(d.onWindow(temp, window(rnd, 9), labels, "job=llm", next())).isEmpty();
    assertThat(d.onWindow(temp, window(rnd, 9), labels, "job=llm", next())).isEmpty();
    List<AlertChange> fire = d.onWindow(temp, window(rnd, 9), labels, "job=llm", next());
    assertThat(fire).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("GpuPeerOutlier");
      assertThat(c.firing()).isTrue();
      assertThat(c.labels()).containsEntry("gpu", "3").containsEntry("metric", "temp_c")
          .containsEntry("peer_group", "job=llm");
      assertThat(c.value()).isGreaterThan(3.5);
    });
    assertThat(d.onWindow(temp, window(rnd, 9), labels, "job=llm", next())).isEmpty();
    assertThat(d.onWindow(temp, window(rnd, 0), labels, "job=llm", next()))
        .as("back among its peers: the 60 s hold begins").isEmpty();
    List<AlertChange> resolve = d.onWindow(temp, window(rnd, 0), labels, "job=llm", next());
    assertThat(resolve).singleElement().satisfies(c -> assertThat(c.firing()).isFalse());
    assertThat(d.firingCount()).isZero();
  }

  @Test
  void aGpuHoveringAtTheLimitIsOneAlertUntilItIsClearlyBack() {
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Random rnd = new Random(13);
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      all.addAll(d.onWindow(temp, window(rnd, 9), labels, "job=llm", next()));
    }
    assertThat(all).singleElement().satisfies(c -> assertThat(c.firing()).isTrue());
    // 20 minutes at the limit: 6.5 C and 5 C hotter than its peers in turn (z about 4.4 and 3.4)
    for (int w = 0; w < 20; w++) {
      all.addAll(d.onWindow(temp, window(rnd, w % 2 == 0 ? 6.5 : 5.0), labels, "job=llm", next()));
    }
    assertThat(all).as("one alert while hovering").hasSize(1);
    all.addAll(d.onWindow(temp, window(rnd, 0), labels, "job=llm", next()));
    all.addAll(d.onWindow(temp, window(rnd, 0), labels, "job=llm", next()));
    assertThat(all).hasSize(2);
    assertThat(all.get(1).firing()).isFalse();
  }

  @Test
  void withoutHysteresisTheSameHoveringFlaps() {
    PeerOutlierSettings none = new PeerOutlierSettings(60, 3.5, 1, 4, 15, cfg.gpuMetrics(), cfg.linkMetrics(), 0, 0,
        cfg.jobOnlyMetrics());
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", none);
    Random rnd = new Random(13);
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 20; w++) {
      all.addAll(d.onWindow(temp, window(rnd, w % 2 == 0 ? 9 : 0), labels, "job=llm", next()));
    }
    assertThat(all).as("what the hysteresis prevents").hasSize(20);
  }

  @Test
  void jobOnlyMetricsAreComparedOnlyInGroupsFormedByJob() {
    assertThat(PeerInput.byJob("job=llm model=NVIDIA H100 80GB HBM3")).isTrue();
    assertThat(PeerInput.byJob("rail=3 job=llm")).isTrue();
    assertThat(PeerInput.byJob("rail=3 jobs=a+b")).isTrue();
    assertThat(PeerInput.byJob("rail=3")).isFalse();
    assertThat(PeerInput.byJob("rack=r1 model=NVIDIA H100 80GB HBM3")).isFalse();
    assertThat(cfg.compares("power_w", false)).isFalse();
    assertThat(cfg.compares("sm_clock_mhz", false)).isFalse();
    assertThat(cfg.compares("tx_gbps", false)).isFalse();
    assertThat(cfg.compares("temp_c", false)).isTrue();
    assertThat(cfg.compares("xmit_wait_per_s", false)).isTrue();
    assertThat(cfg.compares("power_w", true)).isTrue();
  }

  @Test
  void shortBlipDoesNotFire() {
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Random rnd = new Random(3);
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 20; w++) {
      all.addAll(d.onWindow(temp, window(rnd, w % 3 == 0 ? 9 : 0), labels, "job=llm", next()));
    }
    assertThat(all).isEmpty();
  }

  @Test
  void coolerGpuIsNotAHotOutlierAndSmallGroupsAreNotCompared() {
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Random rnd = new Random(5);
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 5; w++) {
      all.addAll(d.onWindow(temp, window(rnd, -12), labels, "job=llm", next()));
    }
    assertThat(all).as("direction HIGH: a cooler GPU is fine").isEmpty();
    Map<String, Double> three = Map.of("a", 60.0, "b", 60.0, "c", 90.0);
    for (int w = 0; w < 5; w++) {
      assertThat(d.onWindow(temp, three, labels, "job=tiny", next())).isEmpty();
    }
  }

  @Test
  void slowLinkIsALowOutlier() {
    PeerMetric tx = cfg.linkMetrics().get(0);
    PeerGroupDetector d = new PeerGroupDetector("LinkPeerOutlier", cfg);
    Map<String, Double> rail = new HashMap<>();
    for (int n = 0; n < 16; n++) {
      rail.put("n" + n + "/mlx5_0/1", n == 9 ? 180.0 : 350.0 + n);
    }
    List<AlertChange> all = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      all.addAll(d.onWindow(tx, rail, Map.of(), "cluster=c1 rail=0", next()));
    }
    assertThat(all).singleElement().satisfies(c -> {
      assertThat(c.labels()).containsEntry("member", "n9/mlx5_0/1").containsEntry("metric", "tx_gbps");
      assertThat(c.value()).isLessThan(-3.5);
    });
  }

  @Test
  void temperatureIsComparedOnlyAtSimilarPower() {
    Map<String, GpuWindowStats> m = new HashMap<>();
    for (int g = 0; g < 6; g++) {
      GpuWindowStats s = new GpuWindowStats();
      s.add(65.0, g == 5 ? 300.0 : 650.0, 1980.0);
      s.add(67.0, g == 5 ? 300.0 : 650.0, 1980.0);
      m.put("n1/" + g, s);
    }
    Map<String, Double> temps = GpuWindowStats.valuesOf("temp_c", m, 15);
    assertThat(temps).hasSize(5).doesNotContainKey("n1/5").containsEntry("n1/0", 66.0);
    assertThat(GpuWindowStats.valuesOf("power_w", m, 15)).hasSize(6).containsEntry("n1/5", 300.0);
  }
}
