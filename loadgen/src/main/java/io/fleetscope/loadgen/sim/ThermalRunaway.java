package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code thermal_runaway}: a GPU's thermal resistance grows by {@code r_growth_per_min} (default
 * 0.5) of its healthy value per minute while the fault is active, so the GPU heats until its
 * clocks are capped.
 */
final class ThermalRunaway implements Fault {
  private final ResolvedFault f;

  ThermalRunaway(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public boolean heatPhysicsOnly() {
    return true;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      double minutes = (tick.ts() - f.startTs()) / 60_000.0;
      effects.node(f.node()).effect(f.type(), Effect::new).factor.put(f.gpu(),
          1 + f.spec().param("r_growth_per_min", 0.5) * minutes);
    }
  }

  /** Resistance factors by GPU; of two faults on one GPU the later in the scenario wins. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Double> factor = new HashMap<>();

    @Override
    public double resistanceFactor(int gpu) {
      return factor.getOrDefault(gpu, 1.0);
    }
  }
}
