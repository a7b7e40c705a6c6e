package io.fleetscope.loadgen.sim;

/** The evolving state of one simulated GPU: temperatures, power-cap throttle and raw counters. */
final class GpuState {
  final Rng rng;
  final double rVariation;
  final double powerVariation;
  final double hotspotC;
  double tempC;
  double powerW;
  double capFactor = 1.0;
  long sbe;
  long dbe;
  long retiredSbe;
  long retiredDbe;
  boolean remapPending;
  boolean remapFailure;
  long remappedCorrectable;
  long remappedUncorrectable;
  long nvlinkTx;
  long nvlinkRx;
  long pcieReplay;
  double sbeCarry;

  GpuState(Rng rng, int index, double initialTempC) {
    this.rng = rng;
    this.rVariation = rng.uniform(0.93, 1.07);
    this.powerVariation = rng.uniform(0.97, 1.03);
    this.hotspotC = 0.4 * index;
    this.tempC = initialTempC;
    this.remappedCorrectable = rng.nextInt(3);
    this.nvlinkTx = rng.nextLong(1L << 50);
    this.nvlinkRx = nvlinkTx + rng.nextLong(1L << 40);
  }
}
