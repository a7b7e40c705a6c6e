package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code fabric_pfc_off}: on one node's RoCE port (target node and rail) PFC is turned off, e.g. a
 * reimaged node whose boot script did not run. Nothing else changes: no traffic effect (the fabric
 * is not congested). The node's agent republishes the port's configuration at the start (or in the
 * first tick when the fault is already on), and with PFC on again at the end when the end falls
 * inside the run.
 */
final class FabricPfcOff implements Fault {
  private final ResolvedFault f;
  private final FabricPorts ports;
  private final long runStartMs;
  private final long runEndMs;

  FabricPfcOff(ResolvedFault f, FabricPorts ports, long runStartMs, long runEndMs) {
    this.f = f;
    this.ports = ports;
    this.runStartMs = runStartMs;
    this.runEndMs = runEndMs;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f) || (f.startTs() <= runStartMs && tick.first())) {
      effects.republish(ports.port(f.nodeName(), f.rail(), tick.ts(), false));
    }
    if (tick.crosses(f.endTs()) && f.endTs() < runEndMs) {
      effects.republish(ports.port(f.nodeName(), f.rail(), tick.ts(), true));
    }
  }
}
