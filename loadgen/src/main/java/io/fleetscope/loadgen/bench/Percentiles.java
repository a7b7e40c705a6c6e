package io.fleetscope.loadgen.bench;

import java.util.Arrays;
import java.util.Collection;

/** Nearest-rank percentiles and medians. */
public final class Percentiles {
  private Percentiles() {}

  /** The p-th percentile (0 < p <= 100) by nearest rank; NaN for no values. */
  public static double of(Collection<? extends Number> values, double p) {
    double[] v = values.stream().mapToDouble(Number::doubleValue).toArray();
    return of(v, p);
  }

  public static double of(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p / 100.0 * s.length);
    return s[Math.max(0, rank - 1)];
  }

  /** The median: the middle value, or the mean of the two middle values. */
  public static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }
}
