package io.fleetscope.flink.thermal;

/**
 * Where a GPU's temperature is heading, read from its trajectory as a first-order response: {@code dT/dt = (T_ss -
 * T) / tau}, so a GPU settling towards a steady state decelerates ({@code d2T/dt2 = -slope / tau}) and
 * {@code T_ss = T + slope * tau}.
 *
 * <ul>
 *   <li>{@link Shape#FLAT}: no significant rise (slope now below {@code min_rising_slope_celsius_per_min} or within
 *       {@code trend_z} standard errors of 0, or no rise over the whole window: the end of a fall levelling out
 *       fits a parabola turning up): no prediction;
 *   <li>{@link Shape#SETTLING}: rising and decelerating (curvature {@code curvature_z} standard errors below 0) with
 *       {@code tau = -slope / (2 curvature)} up to {@code max_tau_s}: the steady state is {@code T + slope * tau};
 *   <li>{@link Shape#ACCELERATING}: rising at the same power without the deceleration a settling with a time
 *       constant up to {@code max_tau_s} would show (curvature significantly above {@code -slope / (2 max_tau_s)}:
 *       faster and faster, or a straight line), or still rising without settling after {@code max_tau_s} of
 *       fit, and ending the window at least {@code noise_floor_c} above where the fit begins: a runaway (a cold
 *       plate losing contact, cooling failing), no steady state. A dip and recovery (the fit ends where it began)
 *       is a wander, not a runaway: it falls through to RISING;
 *   <li>{@link Shape#RISING}: rising, curvature not yet known: the steady state is at most
 *       {@code T + slope * max_tau_s}, the slowest settling accepted.
 * </ul>
 *
 * @param shape the class above
 * @param tempC fitted temperature now
 * @param slopeCPerS fitted slope now, C per second
 * @param curvature half the fitted second derivative, C per second squared
 * @param spanS time the fitted samples span, seconds
 * @param tauS time constant of a settling trajectory, else null
 * @param steadyStateC predicted steady state (an upper bound for RISING), null for FLAT and ACCELERATING
 */
public record TrendEstimate(Shape shape, double tempC, double slopeCPerS, double curvature, double spanS, Double tauS,
    Double steadyStateC) {

  /** The class of a trajectory. */
  public enum Shape { FLAT, SETTLING, ACCELERATING, RISING }

  /** Reads a fit; null fit (not enough evidence yet) gives null. */
  public static TrendEstimate of(TrendFit fit, ThermalRiskSettings cfg) {
    if (fit == null) {
      return null;
    }
    double t = fit.valueC();
    double slope = fit.slopeCPerS();
    boolean rising = slope * 60 >= cfg.minRisingSlopeCelsiusPerMin() && slope >= cfg.trendZ() * fit.slopeSe()
        && fit.linearSlopeCPerS() > 0;
    if (!rising) {
      return new TrendEstimate(Shape.FLAT, t, slope, fit.curvature(), fit.spanS(), null, null);
    }
    double c = fit.curvature();
    if (c <= -cfg.curvatureZ() * fit.curvatureSe()) {
      double tau = -slope / (2 * c);
      if (tau <= cfg.maxTauS()) {
        return new TrendEstimate(Shape.SETTLING, t, slope, c, fit.spanS(), tau, t + slope * tau);
      }
    }
    if ((c >= -slope / (2 * cfg.maxTauS()) + cfg.curvatureZ() * fit.curvatureSe() || fit.spanS() >= cfg.maxTauS())
        && riseOverWindow(fit) >= cfg.noiseFloorC()) {
      return new TrendEstimate(Shape.ACCELERATING, t, slope, c, fit.spanS(), null, null);
    }
    return new TrendEstimate(Shape.RISING, t, slope, c, fit.spanS(), null, t + slope * cfg.maxTauS());
  }

  /**
   * How much higher the fitted trajectory is now than where the fit begins: {@code T(0) - T(-spanS)}. A runaway ends
   * the window above where it started; a healthy GPU's wander at a steady load (a dip of a degree or two and back,
   * which a parabola reads as curving up with a rising end) ends about where it began.
   */
  static double riseOverWindow(TrendFit fit) {
    double span = fit.spanS();
    return fit.slopeCPerS() * span - fit.curvature() * span * span;
  }

  /**
   * Predicted seconds until the temperature reaches {@code slowdownC}, or null when the trajectory settles more than
   * {@code marginC} below it (or is flat). Settling above slowdown: the exponential approach's time; accelerating:
   * the fitted parabola's (a runaway must be called while it is still a few degrees above normal) where it curves
   * up and that is no further ahead than twice what the fit reaches back ({@code spanS}), else the slope's; otherwise
   * (rising, or settling within the margin) the linear extrapolation of the slope.
   */
  public Double secondsTo(double slowdownC, double marginC) {
    double headroom = slowdownC - tempC;
    if (headroom <= 0) {
      return 0.0;
    }
    switch (shape) {
      case FLAT:
        return null;
      case ACCELERATING: {
        double linear = headroom / slopeCPerS;
        if (curvature <= 0) {
          return linear;
        }
        double parabola = 2 * headroom / (slopeCPerS + Math.sqrt(slopeCPerS * slopeCPerS + 4 * curvature * headroom));
        return parabola <= 2 * spanS ? parabola : linear;
      }
      default:
        if (steadyStateC < slowdownC - marginC) {
          return null;
        }
        if (shape == Shape.SETTLING && steadyStateC > slowdownC) {
          return tauS * Math.log((steadyStateC - tempC) / (steadyStateC - slowdownC));
        }
        return headroom / slopeCPerS;
    }
  }
}
