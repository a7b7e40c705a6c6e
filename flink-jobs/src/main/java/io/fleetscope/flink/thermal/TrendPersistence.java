package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * How long a GPU's trajectory-only prediction has held: the consecutive assessments whose trend risk reached warning,
 * and critical. A page (or a warning) from the trajectory alone must be earned over several assessments
 * ({@code trend_warning_assessments}, {@code trend_critical_assessments}) and, for critical, on a GPU already within
 * {@code trend_critical_headroom_c} of slowdown: one fit of a few samples (13 at 10 s samples) that reads a healthy
 * swing as a rise is not enough.
 */
final class TrendPersistence implements Serializable {
  private static final long serialVersionUID = 1L;
  private int warningStreak;
  private int criticalStreak;

  /**
   * Counts this assessment's trend risk and returns the risk it may contribute: itself once earned, else capped just
   * below the level it has not earned yet.
   */
  double offer(double trendRisk, Double headroomC, ThermalRiskSettings cfg) {
    warningStreak = trendRisk >= cfg.warningLevel() ? warningStreak + 1 : 0;
    criticalStreak = trendRisk >= cfg.criticalLevel() ? criticalStreak + 1 : 0;
    return cap(trendRisk, headroomC, cfg);
  }

  private double cap(double trendRisk, Double headroomC, ThermalRiskSettings cfg) {
    if (trendRisk >= cfg.criticalLevel() && criticalStreak >= cfg.trendCriticalAssessments()
        && headroomC != null && headroomC <= cfg.trendCriticalHeadroomC()) {
      return trendRisk;
    }
    if (trendRisk >= cfg.warningLevel() && warningStreak >= cfg.trendWarningAssessments()) {
      return Math.min(trendRisk, below(cfg.criticalLevel()));
    }
    return Math.min(trendRisk, below(cfg.warningLevel()));
  }

  /** The largest score that rounds ({@link ThermalRiskModel#round}) below a level. */
  private static double below(double level) {
    return level - 1e-6;
  }
}
