package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code rack_power_over_cooling}: a rack draws {@code added_kw} (default 20) more than its nodes
 * (metered by its PDUs, carried by its loop) and its GPUs draw {@code gpu_power_factor} (default
 * 1.1) times their demand.
 */
final class RackPowerOverCooling implements Fault {
  private final ResolvedFault f;

  RackPowerOverCooling(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public boolean heatPhysicsOnly() {
    return true;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      FaultSpec s = f.spec();
      effects.loadRack(f.rack(), s.param("added_kw", 20), s.param("gpu_power_factor", 1.1));
    }
  }
}
