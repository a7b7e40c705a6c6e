package io.fleetscope.loadgen.sim;

/**
 * One port's tick while it is being stepped, as the faults on its node may change it: link state,
 * rate, the fraction of line rate it carries, whether the agent reports it, and RoCE congestion.
 * The simulator reuses one instance for every port ({@link #begin}).
 */
final class PortStep {
  PortState counters;
  Rng rng;
  double dtS;
  String state;
  String physState;
  double rateGbps;
  double trafficFraction;
  boolean silent;
  /** Set by {@link RoceCongestion}; null when the port's switch is not congested. */
  RoceCongestion.Level congestion;

  PortStep begin(PortState counters, Rng rng, double dtS, double rateGbps, double trafficFraction, boolean silent) {
    this.counters = counters;
    this.rng = rng;
    this.dtS = dtS;
    this.state = "ACTIVE";
    this.physState = "LinkUp";
    this.rateGbps = rateGbps;
    this.trafficFraction = trafficFraction;
    this.silent = silent;
    this.congestion = null;
    return this;
  }
}
