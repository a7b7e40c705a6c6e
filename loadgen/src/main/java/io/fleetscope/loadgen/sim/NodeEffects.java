package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultType;
import java.util.EnumMap;
import java.util.function.Supplier;

/**
 * The effects of the active faults on one node in the current tick, at most one
 * {@link NodeEffect} per fault type. The hooks of several types run in {@link FaultType}
 * declaration order (ECC before row remapping before XID storms, link down before degraded
 * before shared HCA before RoCE congestion): that order fixes the draws from the GPU's and the
 * node's random streams, so changing it changes seeded output.
 */
final class NodeEffects {
  private final EnumMap<FaultType, NodeEffect> byType = new EnumMap<>(FaultType.class);

  /** The effect of a fault type on this node, created empty by the first fault of that type. */
  @SuppressWarnings("unchecked")
  <E extends NodeEffect> E effect(FaultType type, Supplier<E> create) {
    return (E) byType.computeIfAbsent(type, t -> create.get());
  }

  boolean silent() {
    for (NodeEffect e : byType.values()) {
      if (e.silencesNode()) {
        return true;
      }
    }
    return false;
  }

  void beforeStep(GpuState[] gpus, PortState[] ports) {
    for (NodeEffect e : byType.values()) {
      e.beforeStep(gpus, ports);
    }
  }

  double resistanceFactor(int gpu) {
    double f = 1;
    for (NodeEffect e : byType.values()) {
      f *= e.resistanceFactor(gpu);
    }
    return f;
  }

  void onGpuCounters(int gpu, GpuState s, Rng rng, double dtS, XidEvents xids) {
    for (NodeEffect e : byType.values()) {
      e.onGpuCounters(gpu, s, rng, dtS, xids);
    }
  }

  AgentRecords.GpuReadings onReadings(int gpu, AgentRecords.GpuReadings readings) {
    AgentRecords.GpuReadings r = readings;
    for (NodeEffect e : byType.values()) {
      r = e.onReadings(gpu, r);
    }
    return r;
  }

  void onPort(int rail, PortStep port) {
    for (NodeEffect e : byType.values()) {
      e.onPort(rail, port);
    }
  }

  void onNvlink(int gpu, NvlinkStep links, Rng rng, double dtS) {
    for (NodeEffect e : byType.values()) {
      e.onNvlink(gpu, links, rng, dtS);
    }
  }

  void onNvme(NvmeDrives.Drive drive, Rng rng, double dtS) {
    for (NodeEffect e : byType.values()) {
      e.onNvme(drive, rng, dtS);
    }
  }
}
