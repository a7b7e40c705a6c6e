package io.fleetscope.loadgen.scenario;

import java.util.List;
import java.util.Locale;

/**
 * The kinds of fault a scenario file can name, with what each one needs as a target and which
 * alerts it is expected to raise (the ground truth). A fault's {@code alerts} in the file
 * override {@link #expectedAlerts}; {@link #tolerated} alerts are not counted as false
 * positives when they fire on the fault's target, but are not required either.
 *
 * <p>The declaration order is also the order in which the simulator applies the effects of
 * different fault types on one node in a tick, which fixes its random draws: reordering the
 * constants changes seeded output.
 */
public enum FaultType {
  THERMAL_RUNAWAY(Scope.GPU, List.of("GpuThermalThrottleRisk"), List.of("GpuThrottling", "GpuPeerOutlier"), 60),
  CDU_FLOW_LOSS(Scope.LOOP, List.of("CoolantFlowLow", "GpuThermalThrottleRisk"),
      List.of("GpuThrottling", "CoolantSupplyHot", "GpuPeerOutlier", "RackPowerOverCooling"), 120),
  RACK_POWER_OVER_COOLING(Scope.RACK, List.of("RackPowerOverCooling"), List.of("GpuThermalThrottleRisk", "GpuThrottling"),
      30),
  ECC_DEGRADATION(Scope.GPU, List.of("GpuEccCorrectableRising", "GpuEccUncorrectable"),
      List.of("GpuXid", "GpuRowRemapFailure"), 0),
  ROW_REMAP_FAILURE(Scope.GPU, List.of("GpuRowRemapFailure"), List.of("GpuXid", "GpuEccUncorrectable"), 0),
  XID_STORM(Scope.GPU, List.of("GpuXid"), List.of(), 0),
  IB_LINK_DOWN(Scope.PORT, List.of("IbLinkDown"), List.of("RailImbalance", "LinkPeerOutlier", "IbLinkDegraded"), 0),
  IB_LINK_DEGRADED(Scope.PORT, List.of("IbLinkDegraded"), List.of("IbSymbolErrors", "RailImbalance",
      "LinkPeerOutlier"), 0),
  RAIL_SHARED_HCA(Scope.NODE, List.of("RailImbalance"), List.of("LinkPeerOutlier"), 0),
  ROCE_CONGESTION(Scope.RAIL, List.of("RoceCongestion"), List.of("LinkPeerOutlier", "RailImbalance"), 0),
  SLOW_CHECKPOINT_TIER(Scope.JOB, List.of("CheckpointSlow"), List.of("CheckpointSloBurn"), 300),
  MIXED_GPU_MODELS(Scope.JOB, List.of("JobMixedGpuModels"), List.of("GpuPeerOutlier"), 0),
  NODE_SILENT(Scope.NODE, List.of("TelemetryStale"), List.of(), 0),
  /** Benign: a driver reload resets a node's volatile counters. Expected to raise nothing. */
  COUNTER_RESET(Scope.NODE, List.of(), List.of(), 0),
  /** Benign: a job's nodes are idle and unallocated outside the fault's window, running it inside. */
  JOB_START(Scope.JOB, List.of(), List.of(), 0),
  /** Benign: a job's nodes are idle and unallocated inside the fault's window (the job stopped). */
  JOB_STOP(Scope.JOB, List.of(), List.of(), 0),
  /**
   * Benign for the thermal model: a GPU runs hot but flat, a few degrees below its slowdown
   * temperature; GpuThermalThrottleRisk must not fire. Its cold plate is worse than its peers'
   * (about 20 C hotter at the same power), so a GpuPeerOutlier warning on it is true and tolerated.
   */
  HOT_GPU_FLAT(Scope.GPU, List.of(), List.of("GpuPeerOutlier"), 0),
  /** Benign: a node agent restarts; its samples pause for a few seconds, then it republishes its inventory. */
  AGENT_RESTART(Scope.NODE, List.of(), List.of(), 0),
  /** Benign: one sample of one GPU reads wrong (a temperature spike or a zero reading). */
  SENSOR_GLITCH(Scope.GPU, List.of(), List.of(), 0),
  /** Benign: a coolant loop's supply temperature and its racks' other load follow the time of day. */
  DIURNAL_LOAD(Scope.LOOP, List.of(), List.of(), 0),
  /**
   * The job's parallel file system tier is degraded: every client's write latency rises by
   * {@code latency_factor} (default 15) and the job's checkpoints write at {@code throughput_factor}
   * (default 0.2). Expected: the tier-wide StorageTierDegraded and CheckpointSlow naming the slow
   * tier ({@code CheckpointSlow[slow tier]}, see {@link #scoredName}). Needs the scenario setting
   * {@code storage_interval}.
   */
  PFS_DEGRADED(Scope.JOB, List.of("StorageTierDegraded", "CheckpointSlow[slow tier]"),
      List.of("CheckpointSloBurn", "CheckpointSloBurn[slow tier]"), 300),
  /**
   * The job's own checkpoints are slow ({@code throughput_factor}, default 0.2) while its tier is
   * healthy. Expected: CheckpointSlow naming the slow job ({@code CheckpointSlow[slow job]}).
   */
  SLOW_CHECKPOINT_JOB(Scope.JOB, List.of("CheckpointSlow[slow job]"), List.of("CheckpointSloBurn", "CheckpointSloBurn[slow job]"),
      300),
  /** One node's RoCE port has PFC off (its configuration, fleet.fabric.config.v1), before any congestion. */
  FABRIC_PFC_OFF(Scope.PORT, List.of("FabricConfigDrift"), List.of(), 0),
  /** An NVLink link of a GPU is inactive (param {@code link}); needs {@code settings.nvlink_links}. */
  NVLINK_DOWN(Scope.GPU, List.of("NvlinkDown"), List.of("NvlinkErrorsRising", "GpuXid"), 0),
  /** An NVLink link of a GPU retries (params {@code link}, {@code rate_per_min}); needs {@code settings.nvlink_links}. */
  NVLINK_ERRORS(Scope.GPU, List.of("NvlinkErrorsRising"), List.of(), 0),
  /**
   * A node's local NVMe drive fails: media errors rise and its spare capacity falls below the
   * threshold (critical warning bit 0). Expected: NvmeMediaErrors and the drive's StorageTierDegraded
   * (critical); both keep firing after the fault (a failed drive is not repaired, and media errors
   * are counted over an hour). Needs the scenario setting {@code nvme_interval}.
   */
  NVME_MEDIA_ERRORS(Scope.NODE, List.of("NvmeMediaErrors", "StorageTierDegraded"), List.of(), 3600),
  /**
   * Benign: a node's NVMe drive is worn (endurance used high, below the limit) with old media errors
   * that never rise and a lower spare, all flat. Expected to raise nothing. Needs {@code nvme_interval}.
   */
  NVME_WORN_STABLE(Scope.NODE, List.of(), List.of(), 0),
  /**
   * One node's InfiniBand port retrains at fewer lanes (param {@code lanes}, default 2): its
   * configuration (fleet.fabric.config.v1) differs from its rail's peers in rate and width. Needs an
   * InfiniBand site with {@code site: {ib_port_config: true}}.
   */
  IB_PORT_NARROW(Scope.PORT, List.of("FabricConfigDrift"), List.of(), 0),
  /**
   * One node's InfiniBand port comes up with a smaller active MTU (param {@code mtu}, default 2048)
   * than its rail's peers (4096), as ibv_devinfo reports it. Needs {@code site: {ib_port_config: true}}.
   */
  IB_MTU_MISMATCH(Scope.PORT, List.of("FabricConfigDrift"), List.of(), 0),
  /**
   * One node's InfiniBand port maps every service level to one VL (param {@code vl}, default 0): the
   * subnet manager's QoS SL-to-VL table did not reach it (smpquery sl2vl). Needs {@code site:
   * {ib_port_config: true}}.
   */
  IB_SL2VL_MISMATCH(Scope.PORT, List.of("FabricConfigDrift"), List.of(), 0);

  /**
   * The name an anomaly is scored under: its alertname, followed by its {@code cause} annotation in
   * brackets when it names one ({@code slow tier}, {@code slow job}), so a checkpoint anomaly that
   * blames the wrong side is a miss and a false positive.
   */
  public static String scoredName(String alertname, String cause) {
    return cause == null || cause.isBlank() || cause.equals("unknown") ? alertname : alertname + "[" + cause + "]";
  }

  /** What a fault's target must name. */
  public enum Scope { GPU, PORT, NODE, RACK, LOOP, RAIL, JOB }

  private final Scope scope;
  private final List<String> expectedAlerts;
  private final List<String> tolerated;
  private final long labelTailS;

  FaultType(Scope scope, List<String> expectedAlerts, List<String> tolerated, long labelTailS) {
    this.scope = scope;
    this.expectedAlerts = expectedAlerts;
    this.tolerated = tolerated;
    this.labelTailS = labelTailS;
  }

  public Scope scope() {
    return scope;
  }

  public List<String> expectedAlerts() {
    return expectedAlerts;
  }

  /** A benign event of a healthy fleet: expected to raise nothing. */
  public boolean benign() {
    return expectedAlerts.isEmpty();
  }

  public List<String> tolerated() {
    return tolerated;
  }

  /** Seconds after the fault ends during which its effect (e.g. heat) still legitimately alerts. */
  public long labelTailS() {
    return labelTailS;
  }

  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static FaultType parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      StringBuilder known = new StringBuilder();
      for (FaultType t : values()) {
        known.append(known.length() == 0 ? "" : ", ").append(t.yamlName());
      }
      throw new IllegalArgumentException("unknown fault type '" + s + "'; known: " + known);
    }
  }
}
