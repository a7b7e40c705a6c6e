package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.Map;

/** {@code nvlink_down}: link {@code link} (default 0) of a GPU is inactive while the fault is active. */
final class NvlinkDown implements Fault {
  private final ResolvedFault f;

  NvlinkDown(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.node(f.node()).effect(f.type(), Effect::new).down.put(f.gpu(), (int) f.spec().param("link", 0));
    }
  }

  /** The inactive link by GPU. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Integer> down = new HashMap<>();

    @Override
    public void onNvlink(int gpu, NvlinkStep links, Rng rng, double dtS) {
      Integer l = down.get(gpu);
      if (l != null && l < links.inactive.length) {
        links.inactive[l] = true;
      }
    }
  }
}
