package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code ib_link_degraded}: a port retrains to {@code rate_gbps} (default half the site's link
 * rate) and counts {@code symbol_errors_per_min} (default 30) symbol errors while the fault is
 * active; its link-error-recovery counter counts one at the start.
 */
final class IbLinkDegraded implements Fault {
  private final ResolvedFault f;
  private final double linkRateGbps;

  IbLinkDegraded(ResolvedFault f, double linkRateGbps) {
    this.f = f;
    this.linkRateGbps = linkRateGbps;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      FaultSpec s = f.spec();
      Effect e = effect(effects);
      e.rateGbps.put(f.rail(), s.param("rate_gbps", linkRateGbps / 2));
      e.symbolErrorsPerMin.put(f.rail(), s.param("symbol_errors_per_min", 30));
    }
    if (tick.starts(f)) {
      effect(effects).retraining.add(f.rail());
    }
  }

  private Effect effect(TickEffects effects) {
    return effects.node(f.node()).effect(f.type(), Effect::new);
  }

  /** Degraded rates and error rates by rail (the later fault wins), and the rails retraining now. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Double> rateGbps = new HashMap<>();
    private final Map<Integer, Double> symbolErrorsPerMin = new HashMap<>();
    private final Set<Integer> retraining = new HashSet<>();

    @Override
    public void onPort(int rail, PortStep port) {
      if (retraining.contains(rail)) {
        port.counters.linkErrorRecovery += 1;
      }
      Double rate = rateGbps.get(rail);
      if (rate != null) {
        port.rateGbps = rate;
        port.counters.symbolErrors += port.rng.poisson(symbolErrorsPerMin.get(rail) / 60.0 * port.dtS);
      }
    }
  }
}
