package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.ckpt.CheckpointSloSettings;
import io.fleetscope.flink.ckpt.CheckpointSloTracker;
import io.fleetscope.flink.peer.PeerGroupDetector;
import io.fleetscope.flink.peer.PeerMetric;
import io.fleetscope.flink.peer.PeerOutlierSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cost of part B's pure analytics per input, without Flink (not a test): one thread, warm-up, then
 * {@code runs} timed runs; prints each run and the median. Args: runs (default 5).
 */
public final class PureAnalyticsBenchmark {
  private static final long T0 = 1_767_225_600_000L;
  private static long sink;

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    measure("thermal GpuThermalMonitor.onSample (per sample)", 2_000_000, runs, PureAnalyticsBenchmark::thermal);
    measure("peer PeerGroupDetector.onWindow (per member and metric, groups of 64)", 2_000_000, runs, PureAnalyticsBenchmark::peer);
    measure("ckpt CheckpointSloTracker.onEvent (per checkpoint)", 200_000, runs, PureAnalyticsBenchmark::ckpt);
  }

  interface Work {
    void run(int n);
  }

  private static void measure(String name, int n, int runs, Work w) {
    w.run(n / 4); // warm-up
    List<Double> rates = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      long t0 = System.nanoTime();
      w.run(n);
      double s = (System.nanoTime() - t0) / 1e9;
      rates.add(n / s);
      System.out.printf(Locale.ROOT, "bench %s run=%d n=%d seconds=%.3f per_s=%.0f%n", name, r, n, s, n / s);
    }
    rates.sort(null);
    System.out.printf(Locale.ROOT, "bench %s median_per_s=%.0f (sink %d)%n", name, rates.get(rates.size() / 2), sink);
  }

  /** 64 GPUs, one sample per GPU per second, temperatures drifting; every sample scored. */
  private static void thermal(int n) {
    ThermalRiskModel model = new ThermalRiskModel(ThermalRiskSettings.defaults());
    GpuThermalMonitor[] m = new GpuThermalMonitor[64];
    for (int i = 0; i < m.length; i++) {
      m[i] = new GpuThermalMonitor(model);
    }
    GpuThermalLimits limits = new GpuThermalLimits(87.0, 92.0, 95.0, 700.0);
    CoolingContext cooling = new CoolingContext("loop-a", 30.0, 40.0, 120.0, 30.0, 30.0, 40.0);
    Map<String, String> labels = Map.of("cluster", "c1", "node", "n1", "gpu", "0");
    GpuSample s = new GpuSample();
    s.setCluster("c1");
    s.setNode("n1");
    s.setMemTempC(60.0);
    s.setPowerW(600.0);
    s.setPowerLimitW(700.0);
    s.setThrottleReasons(0L);
    for (int i = 0; i < n; i++) {
      int g = i % 64;
      s.setTs(T0 + (i / 64) * 1000L);
      s.setGpu(g);
      s.setTempC(60.0 + ((i / 64) % 20) * 0.5);
      sink += m[g].onSample(s, limits, cooling, labels).changes().size();
    }
  }

  /** Groups of 64 GPUs, 3 metrics; n counts member-metric evaluations. */
  private static void peer(int n) {
    PeerOutlierSettings cfg = PeerOutlierSettings.defaults();
    PeerGroupDetector d = new PeerGroupDetector("GpuPeerOutlier", cfg);
    Map<String, Map<String, String>> labels = new HashMap<>();
    List<String> members = new ArrayList<>();
    for (int g = 0; g < 64; g++) {
      members.add("n" + (g / 8) + "/" + (g % 8));
      labels.put(members.get(g), Map.of("node", "n" + (g / 8), "gpu", Integer.toString(g % 8)));
    }
    int windows = n / (64 * cfg.gpuMetrics().size());
    for (int w = 0; w < windows; w++) {
      for (PeerMetric m : cfg.gpuMetrics()) {
        Map<String, Double> v = new HashMap<>();
        for (int g = 0; g < 64; g++) {
          v.put(members.get(g), 100.0 + ((g * 7 + w) % 5));
        }
        sink += d.onWindow(m, v, labels, "job=llm", (w + 1) * 60_000L).size();
      }
    }
  }

  /** One job, a checkpoint every 10 minutes. */
  private static void ckpt(int n) {
    CheckpointSloTracker t = new CheckpointSloTracker(CheckpointSloSettings.defaults());
    for (int i = 0; i < n; i++) {
      long start = T0 + i * 600_000L;
      CheckpointEvent e = new CheckpointEvent();
      e.setTs(start + 30_000);
      e.setCluster("c1");
      e.setNode("n1");
      e.setAgentSeq(i);
      e.setJob("llm");
      e.setStep(i);
      e.setBytes(1_000_000_000_000L);
      e.setStartedTs(start);
      e.setFinishedTs(start + (i % 50 == 0 ? 90_000 : 30_000));
      e.setTier("lustre");
      e.setStatus("completed");
      sink += t.onEvent(e, 86_400.0).changes().size();
    }
  }
}
