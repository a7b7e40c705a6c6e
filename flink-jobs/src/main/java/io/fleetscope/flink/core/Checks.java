package io.fleetscope.flink.core;

/** Config value checks with messages that name the key. */
public final class Checks {
  private Checks() {}

  public static void positive(String key, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(key + " must be > 0, got " + v);
    }
  }

  public static void nonNegative(String key, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(key + " must be >= 0, got " + v);
    }
  }

  public static void fraction(String key, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(key + " must be within 0..1, got " + v);
    }
  }

  public static void multipleOf(String key, long v, String baseKey, long base) {
    if (base <= 0 || v % base != 0) {
      throw new IllegalArgumentException(key + " (" + v + ") must be a multiple of " + baseKey + " (" + base + ")");
    }
  }
}
