package io.fleetscope.loadgen.sim;

/**
 * What one fault type does to one node in the current tick. A fault records its effect in an
 * instance of its own effect class (one per node and type, shared by all faults of that type on
 * the node); the simulator calls the hooks while it steps the node. Every hook does nothing by
 * default.
 */
interface NodeEffect {

  /** The node's agent sends nothing this tick. */
  default boolean silencesNode() {
    return false;
  }

  /** Acts on the node's GPU and port state before the tick is stepped (both indexed by GPU / rail). */
  default void beforeStep(GpuState[] gpus, PortState[] ports) {}

  /** A factor on the GPU's thermal resistance (1 = healthy). */
  default double resistanceFactor(int gpu) {
    return 1;
  }

  /** Acts on the GPU's counters after this tick's healthy increments; may raise XIDs. */
  default void onGpuCounters(int gpu, GpuState s, Rng rng, double dtS, XidEvents xids) {}

  /** What the agent reads from the GPU this tick: the true readings, or a wrong one. */
  default AgentRecords.GpuReadings onReadings(int gpu, AgentRecords.GpuReadings readings) {
    return readings;
  }

  /** Acts on a port's tick: link state, rate, traffic, counters. */
  default void onPort(int rail, PortStep port) {}

  /** Acts on a GPU's NVLink links this tick (only when the run simulates NVLink). */
  default void onNvlink(int gpu, NvlinkStep links, Rng rng, double dtS) {}

  /** Acts on the node's NVMe drive after this sample's healthy changes (only when the run simulates NVMe). */
  default void onNvme(NvmeDrives.Drive drive, Rng rng, double dtS) {}
}
