package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code pfs_degraded}: the parallel file system behind the job's checkpoint tier is degraded.
 * While active, every client's writes take {@code latency_factor} (default 15) times longer
 * ({@link StorageClients}) and the job's checkpoints write at {@code throughput_factor}
 * (default 0.2) of their usual throughput.
 */
final class PfsDegraded implements Fault {
  private final ResolvedFault f;

  PfsDegraded(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.slowCheckpoints(f.job(), f.spec().param("throughput_factor", 0.2));
      effects.degradeTier(f.spec().param("latency_factor", 15.0));
    }
  }
}
