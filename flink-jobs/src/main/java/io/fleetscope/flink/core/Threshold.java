package io.fleetscope.flink.core;

import java.io.Serializable;

/**
 * A limit with hysteresis, as an analytic's settings give it: where a value breaches the limit
 * (fires), where it is clearly back inside (the resolve margin, a fraction of the limit's
 * magnitude), and how long it must stay clearly back before the alert resolves (the hold).
 * Between the two the value is "at the limit": it neither fires nor counts towards the hold.
 *
 * @param limit the limit, in the value's unit
 * @param direction ABOVE ({@code v > limit} breaches), AT_LEAST ({@code v >= limit}) or BELOW
 *     ({@code v < limit})
 * @param resolveMargin how far back inside, as a fraction of {@code |limit|}, a value must be to
 *     count as clear (0: any value that does not breach is clear)
 * @param holdMs how long (event time) the value must stay clear before the alert resolves (0: at
 *     the first clear value)
 */
public record Threshold(double limit, Direction direction, double resolveMargin, long holdMs) implements Serializable {

  /** Which side of the limit is the fault. */
  public enum Direction { ABOVE, AT_LEAST, BELOW }

  public Threshold {
    if (Double.isNaN(limit) || Double.isInfinite(limit)) {
      throw new IllegalArgumentException("threshold limit must be finite, got " + limit);
    }
    if (direction == null) {
      throw new IllegalArgumentException("threshold direction must be set");
    }
    if (!(resolveMargin >= 0 && resolveMargin < 1)) {
      throw new IllegalArgumentException("resolve margin must be within [0,1), got " + resolveMargin);
    }
    if (holdMs < 0) {
      throw new IllegalArgumentException("hold must be >= 0 ms, got " + holdMs);
    }
  }

  public static Threshold above(double limit, double resolveMargin, long holdMs) {
    return new Threshold(limit, Direction.ABOVE, resolveMargin, holdMs);
  }

  public static Threshold atLeast(double limit, double resolveMargin, long holdMs) {
    return new Threshold(limit, Direction.AT_LEAST, resolveMargin, holdMs);
  }

  public static Threshold below(double limit, double resolveMargin, long holdMs) {
    return new Threshold(limit, Direction.BELOW, resolveMargin, holdMs);
  }

  /** Whether {@code v} is past the limit (the alert fires, or keeps firing). */
  public boolean breached(double v) {
    return switch (direction) {
      case ABOVE -> v > limit;
      case AT_LEAST -> v >= limit;
      case BELOW -> v < limit;
    };
  }

  /** Whether {@code v} is clearly back inside the limit, past the resolve margin. */
  public boolean clear(double v) {
    double margin = Math.abs(limit) * resolveMargin;
    return switch (direction) {
      case ABOVE -> v <= limit - margin;
      case AT_LEAST -> margin == 0 ? v < limit : v <= limit - margin;
      case BELOW -> margin == 0 ? v >= limit : v >= limit + margin;
    };
  }

  /** The value from which (ABOVE, AT_LEAST: at or below; BELOW: at or above) the value counts as clear. */
  public double resolveAt() {
    double margin = Math.abs(limit) * resolveMargin;
    return direction == Direction.BELOW ? limit + margin : limit - margin;
  }
}
