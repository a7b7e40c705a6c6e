package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code ib_port_narrow}: one node's InfiniBand port (target node and rail) retrains at
 * {@code lanes} (default 2) of its 4 lanes, e.g. after a cable was reseated badly: its agent
 * republishes the port's configuration with the lower rate and width at the start (or in the first
 * tick when the fault is already on), and at full width again at the end when the end falls inside
 * the run. Only the configuration changes (the simulated traffic does not).
 */
final class IbPortNarrow implements Fault {
  private final ResolvedFault f;
  private final FabricPorts ports;
  private final double linkRateGbps;
  private final long runStartMs;
  private final long runEndMs;

  IbPortNarrow(ResolvedFault f, FabricPorts ports, double linkRateGbps, long runStartMs, long runEndMs) {
    this.f = f;
    this.ports = ports;
    this.linkRateGbps = linkRateGbps;
    this.runStartMs = runStartMs;
    this.runEndMs = runEndMs;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f) || (f.startTs() <= runStartMs && tick.first())) {
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, (int) f.spec().param("lanes", 2)));
    }
    if (tick.crosses(f.endTs()) && f.endTs() < runEndMs) {
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, 4));
    }
  }
}
