package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * Hysteresis of one alert with severities warning and critical: a higher severity than the firing one takes over at
 * once; the alert resolves only after no severity at all has been asked for, without a break, for the hold time. A
 * firing alert does not step down (critical stays critical until it resolves): a GPU hovering between two levels is
 * one alert, not one per crossing, and a bit flapping every sample is one alert too.
 */
final class HeldSeverity implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long holdMs;
  private String firing;
  private long lowerSinceTs = Long.MIN_VALUE;

  HeldSeverity(long holdMs) {
    this.holdMs = holdMs;
  }

  String firing() {
    return firing;
  }

  /**
   * @param wanted the severity the current sample asks for: warning, critical or null
   * @param holdsCurrent whether the sample still supports the firing alert (e.g. the score is above the firing
   *     level's threshold minus the resolve margin): then no wanted severity does not start the hold either
   * @return the severity that fires after this sample (possibly unchanged)
   */
  String offer(long ts, String wanted, boolean holdsCurrent) {
    if (rank(wanted) > rank(firing)) {
      firing = wanted;
      lowerSinceTs = Long.MIN_VALUE;
    } else if (wanted != null || holdsCurrent) {
      lowerSinceTs = Long.MIN_VALUE;
    } else if (lowerSinceTs == Long.MIN_VALUE) {
      lowerSinceTs = ts;
      if (holdMs == 0) {
        firing = wanted;
        lowerSinceTs = Long.MIN_VALUE;
      }
    } else if (ts - lowerSinceTs >= holdMs) {
      firing = wanted;
      lowerSinceTs = Long.MIN_VALUE;
    }
    return firing;
  }

  private static int rank(String severity) {
    if (severity == null) {
      return 0;
    }
    return "critical".equals(severity) ? 2 : 1;
  }
}
