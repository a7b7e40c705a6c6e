package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code row_remap_failure}: at its start, a GPU runs out of spare rows: the remap fails (and
 * stays failed), an uncorrectable row is counted and XID 64 is raised, replacing the XIDs of a
 * double-bit error in the same tick.
 */
final class RowRemapFailure implements Fault {
  private static final List<Integer> XIDS = List.of(64);

  private final ResolvedFault f;

  RowRemapFailure(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f)) {
      effects.node(f.node()).effect(f.type(), Effect::new).failing.add(f.gpu());
    }
  }

  /** The GPUs whose remap fails in this tick. */
  static final class Effect implements NodeEffect {
    private final Set<Integer> failing = new HashSet<>();

    @Override
    public void onGpuCounters(int gpu, GpuState s, Rng rng, double dtS, XidEvents xids) {
      if (failing.contains(gpu)) {
        s.remapFailure = true;
        s.remapPending = true;
        s.remappedUncorrectable += 1;
        xids.replaceWith(XIDS);
      }
    }
  }
}
