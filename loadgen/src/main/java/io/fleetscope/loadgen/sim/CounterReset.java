package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.Arrays;

/**
 * {@code counter_reset}: at its start, a driver reload zeroes a node's volatile counters: ECC
 * error counts, NVLink bytes and errors (per link), PCIe replays and the energy counter of every GPU,
 * and every counter of every port.
 * Benign: expected to raise nothing.
 */
final class CounterReset implements Fault {
  private static final Effect RESET = new Effect();

  private final ResolvedFault f;

  CounterReset(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f)) {
      effects.node(f.node()).effect(f.type(), () -> RESET);
    }
  }

  /** Zeroes the node's volatile counters before its tick is stepped. */
  static final class Effect implements NodeEffect {
    @Override
    public void beforeStep(GpuState[] gpus, PortState[] ports) {
      for (int g = 0; g < gpus.length; g++) {
        GpuState s = gpus[g];
        s.sbe = 0;
        s.dbe = 0;
        s.nvlinkTx = 0;
        s.nvlinkRx = 0;
        if (s.links != null) {
          for (long[] l : s.links) {
            Arrays.fill(l, 0);
          }
        }
        s.pcieReplay = 0;
        s.energyMj = 0;
        ports[g].reset();
      }
    }
  }
}
