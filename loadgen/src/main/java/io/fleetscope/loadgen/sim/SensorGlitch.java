package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code sensor_glitch}: the first sample of one GPU at or after the fault's start reads wrong, the
 * GPU itself being fine: {@code kind: temp_spike} (default) adds {@code offset_c} (default 15) to the
 * GPU temperature; {@code kind: zero} reads 0 for the temperatures and the power (a failed NVML
 * query the collector reported as zero). Benign: a one-sample glitch is expected to raise nothing.
 */
final class SensorGlitch implements Fault {
  private final ResolvedFault f;
  private final Effect effect;

  SensorGlitch(ResolvedFault f) {
    this.f = f;
    String kind = f.spec().param("kind", "temp_spike");
    if (!kind.equals("temp_spike") && !kind.equals("zero")) {
      throw new IllegalArgumentException("fault " + f.spec().id() + ": kind must be temp_spike or zero, got '" + kind + "'");
    }
    this.effect = new Effect(f.gpu(), kind.equals("zero"), f.spec().param("offset_c", 15.0));
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f)) {
      effects.node(f.node()).effect(f.type(), () -> effect);
    }
  }

  /** One wrong reading of one GPU. */
  static final class Effect implements NodeEffect {
    private final int gpu;
    private final boolean zero;
    private final double offsetC;

    Effect(int gpu, boolean zero, double offsetC) {
      this.gpu = gpu;
      this.zero = zero;
      this.offsetC = offsetC;
    }

    @Override
    public AgentRecords.GpuReadings onReadings(int g, AgentRecords.GpuReadings r) {
      if (g != gpu) {
        return r;
      }
      if (zero) {
        return new AgentRecords.GpuReadings(0, 0, 0, r.powerLimitW(), r.smClockMhz(), r.utilPct(), r.memUtilPct(),
            r.throttleReasons());
      }
      return new AgentRecords.GpuReadings(r.tempC() + offsetC, r.memTempC(), r.powerW(), r.powerLimitW(),
          r.smClockMhz(), r.utilPct(), r.memUtilPct(), r.throttleReasons());
    }
  }
}
