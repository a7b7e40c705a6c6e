package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultPlan;
import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ecc_degradation}: a GPU's HBM wears out. Single-bit errors arrive at a rate rising
 * linearly from {@code sbe_per_min_start} (default 2) to {@code sbe_per_min_end} (default 60) per
 * minute over the fault's window, one more correctable row remapped per 50; at {@code dbe_at}
 * ({@link FaultPlan#dbeAt}) one double-bit error retires a page, leaves a remap pending and raises
 * XIDs 48 and 63.
 */
final class EccDegradation implements Fault {
  private static final List<Integer> DBE_XIDS = List.of(48, 63);

  private final ResolvedFault f;

  EccDegradation(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      FaultSpec s = f.spec();
      double a = s.param("sbe_per_min_start", 2);
      double b = s.param("sbe_per_min_end", 60);
      effect(effects).sbePerMin.put(f.gpu(), a + (b - a) * f.progress(tick.ts()));
    }
    if (tick.crosses(FaultPlan.dbeAt(f))) {
      effect(effects).dbe.add(f.gpu());
    }
  }

  private Effect effect(TickEffects effects) {
    return effects.node(f.node()).effect(f.type(), Effect::new);
  }

  /** SBE rates (the later fault on a GPU wins) and the GPUs with a DBE in this tick. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Double> sbePerMin = new HashMap<>();
    private final Set<Integer> dbe = new HashSet<>();

    @Override
    public void onGpuCounters(int gpu, GpuState s, Rng rng, double dtS, XidEvents xids) {
      Double sbeRate = sbePerMin.get(gpu);
      if (sbeRate != null) {
        s.sbeCarry += sbeRate / 60.0 * dtS;
        long k = rng.poisson(s.sbeCarry);
        s.sbeCarry = Math.max(0, s.sbeCarry - k);
        long before = s.sbe;
        s.sbe += k;
        if (s.sbe / 50 > before / 50) {
          s.remappedCorrectable += 1;
        }
      }
      if (dbe.contains(gpu)) {
        s.dbe += 1;
        s.retiredDbe += 1;
        s.remapPending = true;
        xids.replaceWith(DBE_XIDS);
      }
    }
  }
}
