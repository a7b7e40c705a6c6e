package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * A GPU's mean power over each sample interval from its cumulative energy counter (DCGM's total energy consumption,
 * mJ since the driver was loaded): {@code delta energy / delta t}. Unlike the instantaneous power reading, which at a
 * 10 s interval shows one training phase (compute or all-reduce, 640 or 380 W) for minutes at a time, the mean is what
 * heats the die. No value for an interval the counter cannot vouch for: the first sample, a counter that went down
 * (a driver reload), an interval longer than {@code maxIntervalS} (a gap: samples lost or an agent away), or a sample
 * that is not newer than the last one (late or duplicate; it is ignored).
 */
final class IntervalPower implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long maxIntervalMs;
  private long lastTs = Long.MIN_VALUE;
  private long lastMj;
  private double intervalS;

  IntervalPower(double maxIntervalS) {
    this.maxIntervalMs = (long) (maxIntervalS * 1000);
  }

  /** Mean power in W over the interval that ends at {@code ts}, or null (see the class). */
  Double offer(long ts, Long energyMj) {
    if (energyMj == null || ts <= lastTs) {
      return null;
    }
    boolean first = lastTs == Long.MIN_VALUE;
    long dtMs = ts - lastTs;
    long dMj = energyMj - lastMj;
    lastTs = ts;
    lastMj = energyMj;
    intervalS = dtMs / 1000.0;
    if (first || dMj < 0 || dtMs > maxIntervalMs) {
      return null;
    }
    return dMj / (double) dtMs; // mJ per ms = W
  }

  /** The interval the last non-null mean power was taken over, seconds. */
  double intervalS() {
    return intervalS;
  }
}
