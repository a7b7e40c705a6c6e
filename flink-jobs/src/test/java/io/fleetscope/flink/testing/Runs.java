package io.fleetscope.flink.testing;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.CollectionSource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;

/** Runs the pipeline on a local MiniCluster (parallelism from the config: 2) over records. */
public final class Runs {
  /** Fixed wall clock of test runs: 2026-06-01, after every test instant. */
  public static final WallClock CLOCK = WallClock.fixed(Fleet.T0 + 151L * 24 * 3600 * 1000);

  private Runs() {}

  public static List<JsonLines.Line> run(List<? extends SpecificRecord> input, AnalyticsConfig cfg, List<Analytic> analytics,
      RuntimeExecutionMode mode) throws Exception {
    return AnalyzeMain.run(new CollectionSource(input), cfg, analytics, CLOCK, mode);
  }

  public static List<Anomaly> anomalies(List<JsonLines.Line> lines) {
    return lines.stream().filter(l -> l.value() instanceof Anomaly).map(l -> (Anomaly) l.value()).toList();
  }

  /** Concise text of an anomaly for order-insensitive comparisons. */
  public static String brief(Anomaly a) {
    return a.getLabels().get("alertname") + " " + a.getStatus() + " " + new java.util.TreeMap<>(a.getLabels()) + " ts=" + a.getTs();
  }

  /** The alerts the fast paths decide per record as it arrives (in each unit's order, not whatever the order). */
  public static final java.util.Set<String> FAST_PATH = java.util.stream.Stream.of(
      io.fleetscope.flink.ecc.GpuHardFaults.ALERTS, io.fleetscope.flink.rail.PortLinkState.ALERTS,
      io.fleetscope.flink.thermal.LeakSensorState.ALERTS, java.util.Set.of(io.fleetscope.flink.nvlink.NvlinkLinkState.ALERT)).flatMap(java.util.Set::stream)
      .collect(java.util.stream.Collectors.toUnmodifiableSet());

  public static boolean fastPath(Anomaly a) {
    return FAST_PATH.contains(a.getLabels().get("alertname"));
  }

  /**
   * Like {@link #brief}, without the context labels {@code rack} and {@code racks}: a fast path takes
   * them from the topology as it is when the record arrives, which in a live run may be before the
   * inventory did.
   */
  public static String identity(Anomaly a) {
    java.util.TreeMap<String, String> labels = new java.util.TreeMap<>(a.getLabels());
    labels.remove("rack");
    labels.remove("racks");
    return a.getLabels().get("alertname") + " " + a.getStatus() + " " + labels + " ts=" + a.getTs();
  }

  /**
   * What a live run and a batch run of the same input must agree on: {@link #brief} for the windowed
   * analytics, {@link #identity} for the fast paths (their context labels depend on whether the
   * inventory reached the fast path before the record did).
   */
  public static String comparable(Anomaly a) {
    return fastPath(a) ? identity(a) : brief(a);
  }

  /** A copy with records moved by up to {@code maxMove} places (deterministic): arrival out of order. */
  public static <T> List<T> jitter(List<T> in, int maxMove, long seed) {
    List<T> out = new ArrayList<>(in);
    Random r = new Random(seed);
    for (int i = 0; i + 1 < out.size(); i++) {
      int j = Math.min(out.size() - 1, i + r.nextInt(maxMove + 1));
      T x = out.get(i);
      out.set(i, out.get(j));
      out.set(j, x);
    }
    return out;
  }
}
