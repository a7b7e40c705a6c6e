package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.catalog.GpuModel;

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
  /** The GPU's NVLink bytes since the driver loaded, over all its links (not reported as such: see {@link #links}). */
  long nvlinkTx;
  long nvlinkRx;
  /**
   * Per NVLink link {tx bytes, rx bytes, replay errors}, the counters the agents report; null until
   * the run simulates NVLink. A driver reload zeroes them with the GPU's other volatile counters.
   */
  long[][] links;
  long pcieReplay;
  double sbeCarry;
  /**
   * Energy consumed since the driver was loaded, mJ, as DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counts it:
   * integrated second by second from the power the GPU draws (not from the sampled readings).
   */
  double energyMj;

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

  /** Adds the energy of drawing {@code powerW} for {@code seconds}. */
  void consume(double powerW, double seconds) {
    energyMj += powerW * seconds * 1000;
  }

  /** The energy counter as DCGM reports it: whole millijoules. */
  long energyCounterMj() {
    return (long) Math.floor(energyMj);
  }

  /**
   * Clock-event control after this tick's temperature: SW thermal capping above the maximum
   * operating temperature is gentle, HW slowdown is hard, reaching the shutdown temperature
   * clamps at once; recovery is slow.
   */
  void controlClocks(GpuModel model, double dtS) {
    if (tempC >= model.shutdownTempC()) {
      capFactor = 0.3;
    } else if (tempC >= model.slowdownTempC()) {
      capFactor = Math.max(0.3, capFactor - 0.05 * dtS);
    } else if (tempC > model.maxOperatingTempC()) {
      capFactor = Math.max(0.3, capFactor - 0.01 * dtS);
    } else if (tempC < model.maxOperatingTempC() - 3) {
      capFactor = Math.min(1.0, capFactor + 0.01 * dtS);
    }
  }

  /** NVML clock-event reasons: SW thermal (0x20), HW slowdown (0x40), SW power cap (0x4). */
  long throttleReasons(GpuModel model, boolean powerCapped) {
    long reasons = 0;
    if (tempC > model.maxOperatingTempC()) {
      reasons |= 0x20;
    }
    if (tempC >= model.slowdownTempC()) {
      reasons |= 0x40;
    }
    if (powerCapped) {
      reasons |= 0x4;
    }
    return reasons;
  }

  /** SM clock in the phase under the current cap, in 15 MHz steps. */
  double smClockMhz(GpuModel model, Phase phase) {
    double clock = model.maxSmClockMhz() * (phase == Phase.COMPUTE ? 0.92 : 0.98)
        * (capFactor < 1 ? Math.sqrt(capFactor) : 1);
    return Math.round(clock / 15) * 15.0;
  }
}
