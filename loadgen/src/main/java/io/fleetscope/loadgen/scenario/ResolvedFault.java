package io.fleetscope.loadgen.scenario;

import java.util.List;

/**
 * A fault with its target resolved against a generated site and its window in epoch ms.
 * Fields that the fault's scope does not use are null.
 */
public record ResolvedFault(FaultSpec spec, long startTs, long endTs, Integer node, String nodeName, Integer gpu,
    Integer rail, Integer rack, String rackName, Integer loop, String loopName, String cduName, Integer job,
    String jobName, List<String> racks) {

  public FaultType type() {
    return spec.type();
  }

  public boolean activeAt(long ts) {
    return ts >= startTs && ts < endTs;
  }

  /** True when {@code at} falls in (prevTs, ts]: a one-shot event happens in this tick. */
  public static boolean crosses(long at, long prevTs, long ts) {
    return at > prevTs && at <= ts;
  }

  /** Fraction of the fault window elapsed at ts, 0..1. */
  public double progress(long ts) {
    if (endTs <= startTs) {
      return 1;
    }
    return Math.max(0, Math.min(1, (ts - startTs) / (double) (endTs - startTs)));
  }
}
