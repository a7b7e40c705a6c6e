package io.fleetscope.flink.core;

import java.io.Serializable;

/**
 * Firing state of one threshold alert with hysteresis: it fires on the first reading past the
 * limit, and resolves only once the readings have stayed clearly back inside (past the resolve
 * margin) for the hold time. A reading past the limit, or merely at it (inside the margin),
 * restarts the hold, so a value hovering around its limit is one firing, not one every few
 * readings. Pure and small: an analytic keeps one per condition in its keyed state.
 */
public final class Hysteresis implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long NOT_CLEAR = Long.MIN_VALUE;

  /** What one reading did to the alert. */
  public enum Change { NONE, FIRE, RESOLVE }

  private boolean firing;
  /** Event time of the first reading of the current clear run while firing, else NOT_CLEAR. */
  private long clearSince = NOT_CLEAR;

  public Hysteresis() {}

  /** A state that fires or not, as restored from a state that knew only that. */
  public static Hysteresis restored(boolean firing) {
    Hysteresis h = new Hysteresis();
    h.firing = firing;
    return h;
  }

  /** Evaluates one reading of {@code value} at {@code ts} against {@code t}. */
  public Change update(Threshold t, double value, long ts) {
    return update(t.breached(value), t.clear(value), ts, t.holdMs());
  }

  /**
   * Evaluates one reading given as conditions (for alerts whose limit is not one number).
   *
   * @param breached the reading is past the limit
   * @param clear the reading is clearly back inside (never true together with {@code breached})
   * @param ts the reading's event time
   * @param holdMs how long clear readings must last before the alert resolves
   */
  public Change update(boolean breached, boolean clear, long ts, long holdMs) {
    if (!firing) {
      if (breached) {
        firing = true;
        clearSince = NOT_CLEAR;
        return Change.FIRE;
      }
      return Change.NONE;
    }
    if (breached || !clear) {
      clearSince = NOT_CLEAR;
      return Change.NONE;
    }
    if (clearSince == NOT_CLEAR || ts < clearSince) {
      clearSince = ts;
    }
    if (ts - clearSince >= holdMs) {
      firing = false;
      clearSince = NOT_CLEAR;
      return Change.RESOLVE;
    }
    return Change.NONE;
  }

  public boolean firing() {
    return firing;
  }

  /** Whether a firing alert is in its hold (clear, not resolved yet). */
  public boolean holding() {
    return firing && clearSince != NOT_CLEAR;
  }
}
