package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code node_silent}: a node's agent sends nothing (GPU, XID and port samples, and the checkpoint
 * events it reports for its job) while the fault is active; the node itself keeps running and
 * heating its rack.
 */
final class NodeSilent implements Fault {
  private static final Effect SILENT = new Effect();

  private final ResolvedFault f;

  NodeSilent(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.node(f.node()).effect(f.type(), () -> SILENT);
    }
  }

  /** The node is silent. */
  static final class Effect implements NodeEffect {
    @Override
    public boolean silencesNode() {
      return true;
    }
  }
}
