package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.InventoryRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the active faults do in the current tick: per node ({@link NodeEffects}), per rack (added
 * heat, a factor on GPU power), per coolant loop (target flow fraction), per job (a factor on
 * checkpoint throughput, whether it is stopped), and the inventory records agents republish. Rebuilt every tick by
 * applying every {@link Fault} to a {@link #reset} instance.
 */
final class TickEffects {
  private final Map<Integer, NodeEffects> nodes = new HashMap<>();
  private final double[] rackAddedKw;
  private final double[] rackPowerFactor;
  private final double[] loopFlowTarget;
  private final double[] loopSupplyOffsetC;
  private final double[] checkpointFactor;
  private double tierLatencyFactor = 1;
  private final boolean[] jobStopped;
  private final List<InventoryRecord> inventoryChanges = new ArrayList<>();
  private final List<io.fleetscope.avro.PortConfig> portConfigChanges = new ArrayList<>();

  TickEffects(int racks, int loops, int jobs) {
    rackAddedKw = new double[racks];
    rackPowerFactor = new double[racks];
    loopFlowTarget = new double[loops];
    loopSupplyOffsetC = new double[loops];
    checkpointFactor = new double[jobs];
    jobStopped = new boolean[jobs];
  }

  /** No effects: every factor 1, nothing added. */
  void reset() {
    nodes.clear();
    Arrays.fill(rackAddedKw, 0);
    Arrays.fill(rackPowerFactor, 1);
    Arrays.fill(loopFlowTarget, 1);
    Arrays.fill(loopSupplyOffsetC, 0);
    Arrays.fill(checkpointFactor, 1);
    tierLatencyFactor = 1;
    Arrays.fill(jobStopped, false);
    inventoryChanges.clear();
    portConfigChanges.clear();
  }

  /** The node's effects, created empty on first use. */
  NodeEffects node(int node) {
    return nodes.computeIfAbsent(node, k -> new NodeEffects());
  }

  /** The node's effects, or null when no fault touches it this tick. */
  NodeEffects nodeOrNull(int node) {
    return nodes.get(node);
  }

  boolean silent(int node) {
    NodeEffects e = nodes.get(node);
    return e != null && e.silent();
  }

  /** Adds heat that the rack's PDUs meter and its loop carries, and scales its GPUs' power. */
  void loadRack(int rack, double addedKw, double gpuPowerFactor) {
    rackAddedKw[rack] += addedKw;
    rackPowerFactor[rack] *= gpuPowerFactor;
  }

  double rackAddedKw(int rack) {
    return rackAddedKw[rack];
  }

  double rackPowerFactor(int rack) {
    return rackPowerFactor[rack];
  }

  /** Caps the loop's target flow fraction; the lowest cap wins. */
  void limitLoopFlow(int loop, double fraction) {
    loopFlowTarget[loop] = Math.min(loopFlowTarget[loop], fraction);
  }

  double loopFlowTarget(int loop) {
    return loopFlowTarget[loop];
  }

  /** Raises (or lowers) the loop's supply temperature, K; offsets add up. */
  void offsetSupply(int loop, double kelvin) {
    loopSupplyOffsetC[loop] += kelvin;
  }

  double supplyOffsetC(int loop) {
    return loopSupplyOffsetC[loop];
  }

  /** Scales the throughput of the job's checkpoint tier. */
  void slowCheckpoints(int job, double factor) {
    checkpointFactor[job] *= factor;
  }

  double checkpointFactor(int job) {
    return checkpointFactor[job];
  }

  /** Multiplies the write latency of the shared checkpoint tier's clients (a degraded parallel file system). */
  void degradeTier(double factor) {
    tierLatencyFactor *= factor;
  }

  double tierLatencyFactor() {
    return tierLatencyFactor;
  }

  /** The job is not running this tick: its nodes are idle and no longer allocated to it. */
  void stopJob(int job) {
    jobStopped[job] = true;
  }

  boolean jobStopped(int job) {
    return jobStopped[job];
  }

  /** A node agent republishes its inventory this tick. */
  void republish(InventoryRecord inventory) {
    inventoryChanges.add(inventory);
  }

  /** A node agent republishes a port's fabric configuration this tick. */
  void republish(io.fleetscope.avro.PortConfig port) {
    portConfigChanges.add(port);
  }

  List<io.fleetscope.avro.PortConfig> portConfigChanges() {
    return portConfigChanges;
  }

  List<InventoryRecord> inventoryChanges() {
    return inventoryChanges;
  }
}
