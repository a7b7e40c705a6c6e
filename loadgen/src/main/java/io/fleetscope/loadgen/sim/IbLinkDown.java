package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code ib_link_down}: a port's link goes down (state DOWN, physical state Polling, no traffic)
 * while the fault is active; its link-downed counter counts one at the start.
 */
final class IbLinkDown implements Fault {
  private final ResolvedFault f;

  IbLinkDown(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effect(effects).down.add(f.rail());
    }
    if (tick.starts(f)) {
      effect(effects).goingDown.add(f.rail());
    }
  }

  private Effect effect(TickEffects effects) {
    return effects.node(f.node()).effect(f.type(), Effect::new);
  }

  /** The rails that are down, and those that go down in this tick. */
  static final class Effect implements NodeEffect {
    private final Set<Integer> down = new HashSet<>();
    private final Set<Integer> goingDown = new HashSet<>();

    @Override
    public void onPort(int rail, PortStep port) {
      if (goingDown.contains(rail)) {
        port.counters.linkDowned += 1;
      }
      if (down.contains(rail)) {
        port.state = "DOWN";
        port.physState = "Polling";
        port.trafficFraction = 0;
      }
    }
  }
}
