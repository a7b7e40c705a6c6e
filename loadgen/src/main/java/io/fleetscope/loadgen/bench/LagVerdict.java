package io.fleetscope.loadgen.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether each consumer group keeps up, from its lag over a run. A group that commits its offsets
 * only now and then (the analytics commit on each Flink checkpoint, every 30 s) shows a saw-tooth
 * of up to one commit interval of input even when it keeps up, so a straight line through the raw
 * lag says "growing" or "shrinking" depending on where the run ends. The verdict therefore reads
 * the lag's floor: the smallest lag in each window of {@code windowS} seconds (longer than the
 * commit interval, so every window holds a commit), the first window left out (it may end before
 * the first commit). A group is bounded when the least-squares slope of its floors is below 1 % of
 * the offered rate per second (at least 1 record/s). With fewer than three floors the run is too
 * short for that, and the verdict falls back to the slope of the raw total lag over the second
 * half of the run ({@code method=slope}).
 */
public final class LagVerdict {
  /** Default window: longer than the analytics' 30 s checkpoint (offset commit) interval. */
  public static final double DEFAULT_WINDOW_S = 35;

  private LagVerdict() {}

  /** One group's floors: the window minima in time order, their slope, and the verdict. */
  public record GroupLag(List<Long> floors, double floorSlopePerS, boolean bounded) {}

  /**
   * @param method {@code floor} or {@code slope}
   * @param slopePerS the largest floor slope among the groups (floor), or the raw total lag's slope (slope)
   */
  public record Result(String method, boolean bounded, double slopePerS, Map<String, GroupLag> groups) {}

  public static Result of(List<PipelineSample> steady, double rps, double windowS) {
    double limit = Math.max(1, 0.01 * rps);
    TreeSet<String> names = new TreeSet<>();
    steady.forEach(s -> names.addAll(s.lagByGroup().keySet()));
    Map<String, GroupLag> groups = new TreeMap<>();
    boolean enough = !names.isEmpty();
    for (String g : names) {
      List<double[]> floors = floors(steady, g, windowS);
      if (floors.size() < 3) {
        enough = false;
        break;
      }
      double slope = slope(floors);
      groups.put(g, new GroupLag(floors.stream().map(f -> (long) f[1]).toList(), slope, slope < limit));
    }
    if (enough) {
      double worst = groups.values().stream().mapToDouble(GroupLag::floorSlopePerS).max().orElse(0);
      return new Result("floor", groups.values().stream().allMatch(GroupLag::bounded), worst, groups);
    }
    List<PipelineSample> half = steady.subList(steady.size() / 2, steady.size());
    List<double[]> points = new ArrayList<>();
    half.forEach(s -> points.add(new double[] {s.tS(), s.totalLag()}));
    double slope = slope(points);
    return new Result("slope", !half.isEmpty() && slope < limit, slope, Map.of());
  }

  /** (time of the minimum, minimum lag) of each full window but the first, for one group. */
  static List<double[]> floors(List<PipelineSample> steady, String group, double windowS) {
    List<double[]> out = new ArrayList<>();
    if (steady.isEmpty()) {
      return out;
    }
    double start = steady.get(0).tS();
    double end = steady.get(steady.size() - 1).tS();
    for (int w = 1; start + (w + 1) * windowS <= end + 1; w++) {
      double from = start + w * windowS;
      double to = from + windowS;
      long min = Long.MAX_VALUE;
      double at = from;
      for (PipelineSample s : steady) {
        Long lag = s.lagByGroup().get(group);
        if (lag != null && s.tS() >= from && s.tS() < to && Math.max(0, lag) < min) {
          min = Math.max(0, lag);
          at = s.tS();
        }
      }
      if (min != Long.MAX_VALUE) {
        out.add(new double[] {at, min});
      }
    }
    return out;
  }

  /** Least-squares slope of (t, value) points. */
  static double slope(List<double[]> points) {
    if (points.size() < 2) {
      return 0;
    }
    double mt = points.stream().mapToDouble(p -> p[0]).average().orElse(0);
    double mv = points.stream().mapToDouble(p -> p[1]).average().orElse(0);
    double num = 0;
    double den = 0;
    for (double[] p : points) {
      num += (p[0] - mt) * (p[1] - mv);
      den += (p[0] - mt) * (p[0] - mt);
    }
    return den == 0 ? 0 : num / den;
  }
}
