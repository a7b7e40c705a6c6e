package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;

/**
 * One fault of a run as the simulator plays it. Each fault type is one class that decides in which
 * ticks it acts and owns its effect on what it touches: a GPU, a port, a node, a rack, a coolant
 * loop or a job. {@link SimRun} applies every fault at the start of a tick, then steps the fleet
 * with the collected {@link TickEffects}.
 *
 * <p>Parameters are read from the scenario when the fault acts, as {@code FaultSpec.param} with
 * the documented defaults.
 */
sealed interface Fault permits ThermalRunaway, CduFlowLoss, RackPowerOverCooling, EccDegradation, RowRemapFailure,
    XidStorm, IbLinkDown, IbLinkDegraded, RailSharedHca, RoceCongestion, SlowCheckpointTier, MixedGpuModels,
    NodeSilent, CounterReset, JobStart, JobStop, HotGpuFlat, AgentRestart, SensorGlitch, DiurnalLoad,
    PfsDegraded, FabricPfcOff, NvlinkDown, NvlinkErrors, NvmeMediaErrors, NvmeWornStable, IbPortDrift {

  /** Records what the fault does in this tick, if anything. */
  void apply(FaultTick tick, TickEffects effects);

  /**
   * Whether the fault acts on the heat physics only (coolant flow and supply, rack load, a GPU's thermal resistance),
   * as a pure function of time with no side effect in {@link #apply}: the simulator then applies it again for every
   * second of physics between two samples (at a 10 s interval the coolant loop and the GPUs still follow it second by
   * second). Every other fault acts once per sample.
   */
  default boolean heatPhysicsOnly() {
    return false;
  }

  /**
   * Adjusts the fleet's starting state (GPUs indexed by node, then GPU), already at its thermal
   * steady state, for a fault that is active from the first tick. Most faults start later: nothing.
   */
  default void atRunStart(long startMs, GpuState[][] gpus) {}

  /** The fault of a resolved scenario entry, on this run's site with its jobs. */
  static Fault of(ResolvedFault f, SimConfig config, SiteTopology site, JobState[] jobs) {
    return switch (f.type()) {
      case THERMAL_RUNAWAY -> new ThermalRunaway(f);
      case CDU_FLOW_LOSS -> new CduFlowLoss(f);
      case RACK_POWER_OVER_COOLING -> new RackPowerOverCooling(f);
      case ECC_DEGRADATION -> new EccDegradation(f);
      case ROW_REMAP_FAILURE -> new RowRemapFailure(f);
      case XID_STORM -> new XidStorm(f);
      case IB_LINK_DOWN -> new IbLinkDown(f);
      case IB_LINK_DEGRADED -> new IbLinkDegraded(f, config.site().linkRateGbps());
      case RAIL_SHARED_HCA -> new RailSharedHca(f, site, config.startMs(), config.endMs());
      case ROCE_CONGESTION -> new RoceCongestion(f, site.nodes().size());
      case SLOW_CHECKPOINT_TIER -> new SlowCheckpointTier(f);
      case MIXED_GPU_MODELS -> new MixedGpuModels();
      case NODE_SILENT -> new NodeSilent(f);
      case COUNTER_RESET -> new CounterReset(f);
      case JOB_START -> new JobStart(f);
      case JOB_STOP -> new JobStop(f);
      case HOT_GPU_FLAT -> new HotGpuFlat(f, config, site, jobs);
      case AGENT_RESTART -> new AgentRestart(f, site);
      case SENSOR_GLITCH -> new SensorGlitch(f);
      case DIURNAL_LOAD -> new DiurnalLoad(f, site);
      case PFS_DEGRADED -> new PfsDegraded(f);
      case SLOW_CHECKPOINT_JOB -> new SlowCheckpointTier(f);
      case FABRIC_PFC_OFF -> new FabricPfcOff(f, new FabricPorts(config.site().cluster(), config.scenario().site()),
          config.startMs(), config.endMs());
      case NVLINK_DOWN -> new NvlinkDown(f);
      case NVLINK_ERRORS -> new NvlinkErrors(f);
      case NVME_MEDIA_ERRORS -> new NvmeMediaErrors(f);
      case NVME_WORN_STABLE -> new NvmeWornStable(f);
      case IB_PORT_NARROW, IB_MTU_MISMATCH, IB_SL2VL_MISMATCH -> new IbPortDrift(f, new FabricPorts(config.site().cluster(), config.scenario().site()),
          config.site().linkRateGbps(), config.startMs(), config.endMs());
    };
  }
}
