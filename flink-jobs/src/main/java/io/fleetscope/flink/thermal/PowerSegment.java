package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * Tells when a GPU's power level moves (a job starts or stops, a checkpoint idles the GPUs): a smoothed power (time
 * constant {@code power_smoothing_s}) that leaves the current segment's level (its mean power) by more than {@code power_step_fraction}
 * of the power limit starts a new segment. Within one segment the steady state of a healthy GPU does not move; the
 * training phases' power swings of a few seconds stay inside one.
 */
final class PowerSegment implements Serializable {
  private static final long serialVersionUID = 1L;
  private final double smoothingMs;
  private final double stepFraction;
  private long lastTs = Long.MIN_VALUE;
  private double smoothedW;
  /** Mean power of the current segment and its sample count: the level the smoothed power is held against. */
  private double levelW = Double.NaN;
  private long levelN;

  PowerSegment(double smoothingS, double stepFraction) {
    this.smoothingMs = smoothingS * 1000;
    this.stepFraction = stepFraction;
  }

  /** Feeds one reading; true when it starts a new segment. */
  boolean offer(long ts, Double powerW, Double limitW) {
    if (powerW == null || limitW == null || limitW <= 0) {
      return false;
    }
    if (lastTs == Long.MIN_VALUE) {
      smoothedW = powerW;
    } else if (ts > lastTs) {
      smoothedW += (powerW - smoothedW) * (1 - Math.exp(-(ts - lastTs) / smoothingMs));
    }
    lastTs = Math.max(lastTs, ts);
    if (!Double.isNaN(levelW) && Math.abs(smoothedW - levelW) > stepFraction * limitW) {
      levelW = smoothedW;
      levelN = 1;
      return true;
    }
    levelN++;
    levelW = Double.isNaN(levelW) ? powerW : levelW + (powerW - levelW) / levelN;
    return false;
  }
}
