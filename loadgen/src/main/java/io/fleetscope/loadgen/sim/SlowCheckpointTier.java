package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code slow_checkpoint_tier}: a job's checkpoint tier writes at {@code throughput_factor}
 * (default 0.2) of its usual throughput, so checkpoints started while the fault is active take
 * longer.
 */
final class SlowCheckpointTier implements Fault {
  private final ResolvedFault f;

  SlowCheckpointTier(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.slowCheckpoints(f.job(), f.spec().param("throughput_factor", 0.2));
    }
  }
}
