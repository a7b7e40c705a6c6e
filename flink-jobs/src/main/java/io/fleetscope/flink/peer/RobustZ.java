package io.fleetscope.flink.peer;

import java.util.Arrays;
import java.util.Collection;

/**
 * Robust z-score: {@code (x - median) / (1.4826 * MAD)}, where MAD is the median absolute
 * deviation from the median; 1.4826 makes the MAD estimate the standard deviation of normal data.
 * The MAD is floored so that a group of identical peers does not turn a tiny difference into an
 * infinite score.
 */
public final class RobustZ {
  public static final double NORMAL_CONSISTENCY = 1.4826;

  private final double median;
  private final double scale;

  private RobustZ(double median, double scale) {
    this.median = median;
    this.scale = scale;
  }

  /** Fits median and MAD of the values, with MAD floored at {@code madFloor} (> 0). */
  public static RobustZ of(Collection<Double> values, double madFloor) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("robust z-score needs at least one value");
    }
    if (!(madFloor > 0)) {
      throw new IllegalArgumentException("mad floor must be > 0, got " + madFloor);
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    double med = median(v);
    double[] dev = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      dev[i] = Math.abs(v[i] - med);
    }
    double mad = Math.max(median(dev), madFloor);
    return new RobustZ(med, NORMAL_CONSISTENCY * mad);
  }

  public double median() {
    return median;
  }

  public double z(double x) {
    return (x - median) / scale;
  }

  static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
