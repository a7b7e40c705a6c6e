package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code roce_congestion}: the switch of a rail (on one node, or on every node when the target
 * names no node) is congested: the port carries {@code throughput_factor} (default 0.5) of its
 * traffic and, on a RoCE fabric, counts {@code pfc_pause_per_s} (default 50,000) PFC pauses
 * received (0.4 of that sent) and {@code ecn_marks_per_s} (default 20,000) ECN marks, half of
 * them answered by CNPs, with a large transmit wait.
 */
final class RoceCongestion implements Fault {
  private final ResolvedFault f;
  private final int nodes;

  RoceCongestion(ResolvedFault f, int nodes) {
    this.f = f;
    this.nodes = nodes;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (!tick.active(f)) {
      return;
    }
    FaultSpec s = f.spec();
    Level level = new Level(s.param("throughput_factor", 0.5), s.param("pfc_pause_per_s", 50_000),
        s.param("ecn_marks_per_s", 20_000));
    if (f.node() != null) {
      effects.node(f.node()).effect(f.type(), Effect::new).byRail.put(f.rail(), level);
    } else {
      for (int i = 0; i < nodes; i++) {
        effects.node(i).effect(f.type(), Effect::new).byRail.put(f.rail(), level);
      }
    }
  }

  /** How congested a port's switch is. */
  record Level(double throughputFactor, double pfcPausePerS, double ecnMarksPerS) {

    /** The RoCE counters of a congested tick (instead of the healthy all-reduce background). */
    void count(PortState p, Rng rng, double dtS) {
      p.pfcRx += rng.poisson(pfcPausePerS * dtS);
      p.pfcTx += rng.poisson(pfcPausePerS * 0.4 * dtS);
      long ecn = rng.poisson(ecnMarksPerS * dtS);
      p.ecn += ecn;
      p.cnpSent += ecn / 2;
      p.cnpHandled += ecn / 2;
      p.xmitWait += (long) (5e6 * dtS);
    }
  }

  /** Congestion by rail; the later fault on a port wins. */
  static final class Effect implements NodeEffect {
    private final Map<Integer, Level> byRail = new HashMap<>();

    @Override
    public void onPort(int rail, PortStep port) {
      Level level = byRail.get(rail);
      if (level != null) {
        port.congestion = level;
        port.trafficFraction *= level.throughputFactor();
      }
    }
  }
}
