package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;

/**
 * {@code rail_shared_hca}: a node loses the HCA of rail {@code rail_from} (default 1) and sends
 * that rail's traffic through rail {@code rail_to} (default 0), which carries twice its share (at
 * most 97% of line rate); the lost port is no longer reported. The node's agent republishes its
 * inventory without that HCA at the start (or in the first tick when the fault is already on), and
 * with it again at the end when the end falls inside the run.
 */
final class RailSharedHca implements Fault {
  private final ResolvedFault f;
  private final SiteTopology site;
  private final long runStartMs;
  private final long runEndMs;

  RailSharedHca(ResolvedFault f, SiteTopology site, long runStartMs, long runEndMs) {
    this.f = f;
    this.site = site;
    this.runStartMs = runStartMs;
    this.runEndMs = runEndMs;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    FaultSpec s = f.spec();
    int from = (int) s.param("rail_from", 1);
    if (tick.active(f)) {
      Effect e = effects.node(f.node()).effect(f.type(), Effect::new);
      e.from = from;
      e.to = (int) s.param("rail_to", 0);
    }
    SiteTopology.Node node = site.nodes().get(f.node());
    if (tick.starts(f) || (f.startTs() <= runStartMs && tick.first())) {
      effects.republish(site.nodeInventory(node, tick.ts(), from));
    }
    if (tick.crosses(f.endTs()) && f.endTs() < runEndMs) {
      effects.republish(site.nodeInventory(node, tick.ts(), -1));
    }
  }

  /** The node's lost rail and the rail that takes its traffic; the later fault on a node wins. */
  static final class Effect implements NodeEffect {
    private int from = -1;
    private int to = -1;

    @Override
    public void onPort(int rail, PortStep port) {
      if (rail == from) {
        port.trafficFraction = 0;
        port.silent = true;
      } else if (rail == to) {
        port.trafficFraction = Math.min(0.97, 2 * port.trafficFraction);
      }
    }
  }
}
