package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.Collections;
import java.util.List;

/**
 * One node's InfiniBand port (target node and rail) whose configuration differs from its rail's
 * peers: {@code ib_port_narrow} retrains at {@code lanes} (default 2) of its 4 lanes (e.g. a cable
 * reseated badly: lower rate and width), {@code ib_mtu_mismatch} runs another active MTU (param
 * {@code mtu}, default 2048), {@code ib_sl2vl_mismatch} puts every service level on one VL (param
 * {@code vl}, default 0). Its agent republishes the port's configuration at the start (or in the first
 * tick when the fault is already on), and as its peers' again at the end when the end falls inside the
 * run. Only the configuration changes (the simulated traffic does not).
 */
final class IbPortDrift implements Fault {
  private static final int LANES = 4;

  private final ResolvedFault f;
  private final FabricPorts ports;
  private final double linkRateGbps;
  private final long runStartMs;
  private final long runEndMs;

  IbPortDrift(ResolvedFault f, FabricPorts ports, double linkRateGbps, long runStartMs, long runEndMs) {
    this.f = f;
    this.ports = ports;
    this.linkRateGbps = linkRateGbps;
    this.runStartMs = runStartMs;
    this.runEndMs = runEndMs;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f) || (f.startTs() <= runStartMs && tick.first())) {
      int lanes = LANES;
      int activeMtu = FabricPorts.IB_MTU;
      List<Integer> sl2vl = FabricPorts.IB_SL2VL;
      switch (f.type()) {
        case IB_PORT_NARROW -> lanes = (int) f.spec().param("lanes", 2);
        case IB_MTU_MISMATCH -> activeMtu = (int) f.spec().param("mtu", 2048);
        case IB_SL2VL_MISMATCH -> sl2vl = Collections.nCopies(16, (int) f.spec().param("vl", 0));
        default -> throw new IllegalStateException("not an InfiniBand port fault: " + f.type());
      }
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, lanes, activeMtu, sl2vl));
    }
    if (tick.crosses(f.endTs()) && f.endTs() < runEndMs) {
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, LANES));
    }
  }
}
