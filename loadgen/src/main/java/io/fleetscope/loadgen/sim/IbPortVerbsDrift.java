package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.util.Collections;
import java.util.List;

/**
 * {@code ib_mtu_mismatch} and {@code ib_sl2vl_mismatch}: one node's InfiniBand port (target node and
 * rail) reports another active MTU (param {@code mtu}, default 2048) or an SL-to-VL table that puts
 * every service level on one VL (param {@code vl}, default 0) than its rail's peers. Its agent
 * republishes the port's configuration at the start (or in the first tick when the fault is already
 * on), and as its peers' again at the end when the end falls inside the run. Only the configuration
 * changes (the simulated traffic does not).
 */
final class IbPortVerbsDrift implements Fault {
  private final ResolvedFault f;
  private final FabricPorts ports;
  private final double linkRateGbps;
  private final long runStartMs;
  private final long runEndMs;

  IbPortVerbsDrift(ResolvedFault f, FabricPorts ports, double linkRateGbps, long runStartMs, long runEndMs) {
    this.f = f;
    this.ports = ports;
    this.linkRateGbps = linkRateGbps;
    this.runStartMs = runStartMs;
    this.runEndMs = runEndMs;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.starts(f) || (f.startTs() <= runStartMs && tick.first())) {
      boolean mtu = f.type() == FaultType.IB_MTU_MISMATCH;
      int activeMtu = mtu ? (int) f.spec().param("mtu", 2048) : FabricPorts.IB_MTU;
      List<Integer> sl2vl = mtu ? FabricPorts.IB_SL2VL : Collections.nCopies(16, (int) f.spec().param("vl", 0));
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, 4, activeMtu, sl2vl));
    }
    if (tick.crosses(f.endTs()) && f.endTs() < runEndMs) {
      effects.republish(ports.ibPort(f.nodeName(), f.rail(), tick.ts(), linkRateGbps, 4));
    }
  }
}
