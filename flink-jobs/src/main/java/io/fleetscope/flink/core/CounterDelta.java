package io.fleetscope.flink.core;

/**
 * Increase of a raw counter between two samples, like Prometheus {@code rate()}: a counter that
 * goes down was reset (the increase is its new value), unless it is narrower than 64 bits and going
 * round its modulus gives a plausible increase (then it wrapped).
 */
public final class CounterDelta {
  /** Returned when the increase is unknown (a sample lacks the counter). */
  public static final long UNKNOWN = -1L;

  private CounterDelta() {}

  /**
   * @param prev previous value, or null
   * @param cur current value, or null
   * @param modulus the counter's modulus (e.g. 2^32, or 4 * 2^32 for 32-bit word counters
   *     converted to bytes); 0 or negative for a 64-bit counter (no wrap)
   * @param maxPlausible the largest increase that is physically possible over the interval; a wrap
   *     that would imply more is taken for a reset instead
   */
  public static long delta(Long prev, Long cur, long modulus, double maxPlausible) {
    if (prev == null || cur == null) {
      return UNKNOWN;
    }
    long p = prev;
    long c = cur;
    if (c >= p) {
      return c - p;
    }
    if (modulus > 0 && p < modulus) {
      long wrapped = (modulus - p) + c;
      if (wrapped <= maxPlausible) {
        return wrapped;
      }
    }
    return c; // reset: the counter restarted from zero
  }

  /** Modulus of a counter {@code widthBits} wide, scaled by {@code unit} (4 for word counters in bytes). */
  public static long modulus(Integer widthBits, long unit) {
    if (widthBits == null || widthBits <= 0 || widthBits >= 62) {
      return 0;
    }
    return (1L << widthBits) * unit;
  }
}
