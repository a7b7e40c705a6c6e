package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;
import java.time.Duration;

/**
 * {@code agent_restart}: a node's agent restarts at the fault's start (an upgrade, a crash and a
 * systemd restart). For {@code gap} (default 20 s) it sends nothing; the node keeps running. When
 * it is back it publishes its inventory again, as the agent does at every start, and its samples
 * resume. {@code agent_seq} continues where it stopped, as the real agent's does: the next number
 * is persisted in its spool directory before it is used, so a restart never reuses one. Benign: a
 * gap well below the staleness threshold is expected to raise nothing.
 */
final class AgentRestart implements Fault {
  /** Default time the agent is away. */
  static final Duration DEFAULT_GAP = Duration.ofSeconds(20);
  private static final NodeSilent.Effect AWAY = new NodeSilent.Effect();

  private final ResolvedFault f;
  private final SiteTopology site;
  private final long backTs;

  AgentRestart(ResolvedFault f, SiteTopology site) {
    this.f = f;
    this.site = site;
    this.backTs = f.startTs() + f.spec().durationParam("gap", DEFAULT_GAP).toMillis();
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.ts() >= f.startTs() && tick.ts() < backTs) {
      effects.node(f.node()).effect(f.type(), () -> AWAY);
    } else if (tick.crosses(backTs)) {
      effects.republish(site.nodeInventory(site.nodes().get(f.node()), tick.ts(), -1));
    }
  }
}
