package io.fleetscope.flink.ckpt;

/**
 * Optimal checkpoint intervals for a checkpoint cost C and a mean time between failures M (both in
 * seconds).
 *
 * <ul>
 *   <li>Young (1974): {@code T = sqrt(2 C M)}.
 *   <li>Daly (2006), higher-order: for {@code C < 2M},
 *       {@code T = sqrt(2 C M) * (1 + sqrt(C / 2M) / 3 + (C / 2M) / 9) - C}; otherwise {@code T = M}.
 * </ul>
 */
public final class YoungDaly {
  private YoungDaly() {}

  public static double young(double costS, double mtbfS) {
    check(costS, mtbfS);
    return Math.sqrt(2 * costS * mtbfS);
  }

  public static double daly(double costS, double mtbfS) {
    check(costS, mtbfS);
    if (costS >= 2 * mtbfS) {
      return mtbfS;
    }
    double r = costS / (2 * mtbfS);
    return Math.sqrt(2 * costS * mtbfS) * (1 + Math.sqrt(r) / 3 + r / 9) - costS;
  }

  private static void check(double costS, double mtbfS) {
    if (!(costS > 0) || !(mtbfS > 0)) {
      throw new IllegalArgumentException("checkpoint cost and MTBF must be > 0 s, got C=" + costS + " M=" + mtbfS);
    }
  }
}
