package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code nvlink_errors}: while active, link {@code link} (default 0) of a GPU retries (replay errors)
 * at {@code rate_per_min} (default 40), Poisson distributed; the link stays active.
 */
final class NvlinkErrors implements Fault {
  private final ResolvedFault f;

  NvlinkErrors(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      Effect e = effects.node(f.node()).effect(f.type(), Effect::new);
      e.link.put(f.gpu(), (int) f.spec().param("link", 0));
      e.perMin.put(f.gpu(), f.spec().param("rate_per_min", 40));
    }
  }

  /** The retrying link and its rate by GPU. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Integer> link = new HashMap<>();
    private final Map<Integer, Double> perMin = new HashMap<>();

    @Override
    public void onNvlink(int gpu, NvlinkStep links, Rng rng, double dtS) {
      Integer l = link.get(gpu);
      if (l != null && l < links.replayErrors.length) {
        links.replayErrors[l] += rng.poisson(perMin.get(gpu) / 60.0 * dtS);
      }
    }
  }
}
