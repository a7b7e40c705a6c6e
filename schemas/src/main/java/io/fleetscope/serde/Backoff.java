package io.fleetscope.serde;

import java.time.Duration;

/**
 * Capped exponential back-off: {@code initial}, then twice the previous delay, never more than
 * {@code max}. Pure: {@link #delayMs(int)} is the wait before retry number {@code retry} (1-based).
 */
public record Backoff(Duration initial, Duration max) {
  /** 200 ms doubling to 10 s: a registry restart (seconds) is noticed within 10 s of its return. */
  public static final Backoff REGISTRY = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));

  public Backoff {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("back-off initial delay must be > 0, got " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("back-off max delay " + max + " must be >= the initial delay " + initial);
    }
  }

  public long delayMs(int retry) {
    if (retry < 1) {
      throw new IllegalArgumentException("retry numbers start at 1, got " + retry);
    }
    long d = initial.toMillis();
    long cap = max.toMillis();
    for (int i = 1; i < retry && d < cap; i++) {
      d *= 2;
    }
    return Math.min(d, cap);
  }
}
