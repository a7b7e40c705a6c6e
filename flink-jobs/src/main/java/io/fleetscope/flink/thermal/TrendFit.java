package io.fleetscope.flink.thermal;

/**
 * A quadratic least-squares fit of a GPU's recent temperature, {@code T(x) = valueC + slope x + curvature x^2} with
 * x in seconds relative to the newest sample.
 *
 * @param valueC fitted temperature now, C
 * @param slopeCPerS fitted slope now, C per second
 * @param linearSlopeCPerS slope of a straight line fitted to the same samples
 * @param curvature half the second derivative, C per second squared
 * @param slopeSe standard error of the slope
 * @param curvatureSe standard error of the curvature
 * @param sigmaC residual scatter (at least the noise floor), C
 * @param spanS time the fitted samples span, seconds
 */
public record TrendFit(double valueC, double slopeCPerS, double linearSlopeCPerS, double curvature, double slopeSe, double curvatureSe,
    double sigmaC, double spanS) {}
