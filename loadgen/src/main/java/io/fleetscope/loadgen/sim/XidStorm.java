package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code xid_storm}: while active, a GPU raises XIDs drawn from {@code xids} (default [74]) at
 * {@code rate_per_min} (default 20), Poisson distributed.
 */
final class XidStorm implements Fault {
  private final ResolvedFault f;

  XidStorm(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      FaultSpec s = f.spec();
      Effect e = effects.node(f.node()).effect(f.type(), Effect::new);
      e.kinds.put(f.gpu(), s.intListParam("xids", List.of(74)));
      e.perMin.put(f.gpu(), s.param("rate_per_min", 20));
    }
  }

  /** XID kinds and rates by GPU; of two storms on one GPU the later in the scenario wins. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, List<Integer>> kinds = new HashMap<>();
    private final Map<Integer, Double> perMin = new HashMap<>();

    @Override
    public void onGpuCounters(int gpu, GpuState s, Rng rng, double dtS, XidEvents xids) {
      Double rate = perMin.get(gpu);
      if (rate != null) {
        long k = rng.poisson(rate / 60.0 * dtS);
        List<Integer> from = kinds.get(gpu);
        for (int x = 0; x < k; x++) {
          xids.add(from.get(rng.nextInt(from.size())));
        }
      }
    }
  }
}
