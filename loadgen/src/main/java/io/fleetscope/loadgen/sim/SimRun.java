package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.loadgen.catalog.GpuModel;
import io.fleetscope.loadgen.scenario.FaultPlan;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the simulation, advanced tick by tick. All randomness comes from per-entity
 * {@link Rng} streams seeded from the run seed and the entity id, consumed in a fixed order, so a
 * run is a pure function of its {@link SimConfig}.
 *
 * <p>A tick first applies every {@link Fault} (each fault type owns its effect), then steps the
 * coolant loops, the jobs (start and stop, checkpoints), every node (its GPUs, then its ports) and,
 * every facility interval, the PDUs and CDUs. A stopped job's nodes are idle: their GPUs draw idle
 * power and their allocation records say so.
 *
 * <p>The heat physics (coolant flow, GPU temperatures, the GPUs' energy counters) advances second by second
 * whatever the sample interval: with samples further apart than a second, the seconds between two samples are
 * stepped first, each with the heat-physics faults ({@link Fault#heatPhysicsOnly}) applied at that second, so a CDU
 * flow loss reaches the GPUs as its pump runs down, not at the next sample.
 */
public final class SimRun {
  private static final double HOST_POWER_W = 1400;
  private static final double PSU_EFFICIENCY = 0.95;
  /** The thermal model's step when samples are further apart, seconds. */
  private static final double PHYSICS_STEP_S = 1.0;
  /** The energy counters start at up to this long a driver uptime (at idle power), seconds: 30 days. */
  private static final double DRIVER_UPTIME_MAX_S = 30 * 86_400;

  private final SimConfig c;
  private final SiteTopology site;
  private final List<Fault> faults = new ArrayList<>();
  private final int gpusPerNode;
  private final double dtS;
  private final boolean roce;
  private final String linkLayer;
  private final String cluster;
  private final long ticks;
  private long tick;
  private boolean drained;

  private final GpuState[][] gpus;
  private final PortState[][] ports;
  private final Rng[] nodeRng;
  private final Rng[] delayRng;
  private final long[] nodeSeq;
  /** NVLink links simulated per GPU (0: none); each GPU's link counters are in its {@link GpuState#links}. */
  private final int nvlinkLinks;
  private final double[] nodeWallPowerW;
  private final JobState[] jobs;
  /** Whether each job ran in the previous tick; a change emits its nodes' allocation records. */
  private final boolean[] jobRunning;
  private final int[] nodeJob;
  private final int[] nodeRack;
  private final int[] rackLoop;
  private final double[] rackHeatKw;
  private final double[] loopFlowFraction;
  private final double[] loopWalkC;
  private final Rng[] loopRng;
  private final Map<String, Long> rowSeq = new HashMap<>();
  private final Map<String, Double> outletEnergyWh = new HashMap<>();
  private final Rng facilityRng;
  private final Disorder disorder;
  /** What the active faults do in the current tick, rebuilt every tick. */
  private final TickEffects effects;
  /** What the heat-physics faults do in one second between two samples, rebuilt every such second. */
  private final TickEffects secondEffects;
  private final XidEvents xids = new XidEvents();
  /** Every node's Lustre client on fleet.storage.v1, when the scenario sets {@code storage_interval}; else null. */
  private final StorageClients storage;
  private final long storageIntervalMs;
  /** Every node's local NVMe drive on fleet.storage.v1, when the scenario sets {@code nvme_interval}; else null. */
  private final NvmeDrives nvme;
  private final long nvmeIntervalMs;
  private final PortStep portStep = new PortStep();

  /** A node as it is stepped in the current tick. */
  private record NodeTick(int index, SiteTopology.Node node, Phase phase, int rack, double flowFraction,
      double coolantC, NodeEffects effects, boolean silent) {}

  SimRun(SimConfig c, SiteTopology site, FaultPlan plan) {
    this.c = c;
    this.site = site;
    this.gpusPerNode = c.site().gpusPerNode();
    this.dtS = c.intervalMs() / 1000.0;
    this.roce = c.site().fabric().equals("roce");
    this.linkLayer = roce ? "Ethernet" : "InfiniBand";
    this.cluster = c.site().cluster();
    this.ticks = c.durationMs() / c.intervalMs();
    int n = site.nodes().size();
    gpus = new GpuState[n][gpusPerNode];
    ports = new PortState[n][gpusPerNode];
    nodeRng = new Rng[n];
    delayRng = new Rng[n];
    nodeSeq = new long[n];
    nvlinkLinks = c.nvlinkLinks();
    nodeWallPowerW = new double[n];
    nodeJob = new int[n];
    nodeRack = new int[n];
    Map<String, Integer> jobIdx = new HashMap<>();
    jobs = new JobState[site.jobs().size()];
    for (int j = 0; j < jobs.length; j++) {
      SiteTopology.Job job = site.jobs().get(j);
      jobs[j] = new JobState(job, gpusPerNode, Rng.of(c.seed(), "job/" + job.name()), c.startMs(),
          c.checkpointIntervalMs());
      jobIdx.put(job.name(), j);
    }
    jobRunning = new boolean[jobs.length];
    for (int j = 0; j < jobs.length; j++) {
      jobRunning[j] = JobSchedule.running(plan, j, c.startMs());
    }
    for (ResolvedFault f : plan.faults()) {
      faults.add(Fault.of(f, c, site, jobs));
    }
    Map<String, Integer> rackIdx = new HashMap<>();
    for (SiteTopology.Rack r : site.racks()) {
      rackIdx.put(r.name(), r.index());
    }
    Map<String, Integer> loopIdx = new HashMap<>();
    for (int l = 0; l < site.cdus().size(); l++) {
      loopIdx.put(site.cdus().get(l).loop(), l);
    }
    rackLoop = new int[site.racks().size()];
    for (SiteTopology.Rack r : site.racks()) {
      rackLoop[r.index()] = loopIdx.get(r.loop());
    }
    for (int i = 0; i < n; i++) {
      SiteTopology.Node node = site.nodes().get(i);
      nodeRng[i] = Rng.of(c.seed(), "node/" + node.name());
      delayRng[i] = Rng.of(c.seed(), "delay/" + node.name());
      nodeJob[i] = jobIdx.get(node.job());
      nodeRack[i] = rackIdx.get(node.rack());
      for (int g = 0; g < gpusPerNode; g++) {
        gpus[i][g] = new GpuState(Rng.of(c.seed(), "gpu/" + node.name() + "/" + g), g, 55);
        gpus[i][g].energyMj = Rng.of(c.seed(), "energy/" + node.name() + "/" + g).uniform(0, DRIVER_UPTIME_MAX_S)
            * node.model().idlePowerW() * 1000;
        ports[i][g] = new PortState(Rng.of(c.seed(), "port/" + node.name() + "/" + g));
      }
    }
    rackHeatKw = new double[site.racks().size()];
    for (int i = 0; i < n; i++) {
      rackHeatKw[nodeRack[i]] += jobRunning[nodeJob[i]] ? Thermal.NOMINAL_NODE_HEAT_KW : idleNodeHeatKw(i);
    }
    int loops = site.cdus().size();
    loopFlowFraction = new double[loops];
    loopWalkC = new double[loops];
    loopRng = new Rng[loops];
    for (int l = 0; l < loops; l++) {
      loopFlowFraction[l] = 1;
      loopRng[l] = Rng.of(c.seed(), "loop/" + site.cdus().get(l).loop());
    }
    startAtThermalSteadyState();
    for (Fault f : faults) {
      f.atRunStart(c.startMs(), gpus);
    }
    facilityRng = Rng.of(c.seed(), "facility");
    disorder = new Disorder(c);
    effects = new TickEffects(site.racks().size(), loops, jobs.length);
    secondEffects = new TickEffects(site.racks().size(), loops, jobs.length);
    Object si = c.scenario().settings().get("storage_interval");
    storageIntervalMs = si == null ? 0 : io.fleetscope.loadgen.scenario.Durations.of(si).toMillis();
    storage = storageIntervalMs > 0
        ? new StorageClients(c.seed(), site.nodes().stream().map(SiteTopology.Node::name).toList()) : null;
    Object ni = c.scenario().settings().get("nvme_interval");
    nvmeIntervalMs = ni == null ? 0 : io.fleetscope.loadgen.scenario.Durations.of(ni).toMillis();
    nvme = nvmeIntervalMs > 0 ? new NvmeDrives(c.seed(), site.nodes().stream().map(SiteTopology.Node::name).toList()) : null;
  }

  /**
   * GPU temperatures at the steady state of each node's start: the average training power of a
   * running job (a running fleet, not a cold start), or idle power where the node's job is not
   * running yet.
   */
  private void startAtThermalSteadyState() {
    for (int i = 0; i < site.nodes().size(); i++) {
      SiteTopology.Node node = site.nodes().get(i);
      JobState job = jobs[nodeJob[i]];
      double coolant = Thermal.SUPPLY_SETPOINT_C
          + 0.5 * Thermal.coolantRiseK(rackHeatKw[nodeRack[i]], Thermal.FLOW_PER_RACK_LPM);
      for (int g = 0; g < gpusPerNode; g++) {
        GpuState s = gpus[i][g];
        double r = Thermal.BASE_R_C_PER_W * s.rVariation;
        double power = jobRunning[nodeJob[i]] ? node.model().tdpW() * job.averagePowerFraction() * s.powerVariation
            : node.model().idlePowerW();
        s.tempC = Thermal.steadyStateC(coolant, r, power, s.hotspotC);
      }
    }
  }

  /** Wall power of an idle node (GPUs at idle power, the host), kW. */
  private double idleNodeHeatKw(int i) {
    return (gpusPerNode * site.nodes().get(i).model().idlePowerW() + HOST_POWER_W) / PSU_EFFICIENCY / 1000;
  }

  public boolean hasNextTick() {
    return tick < ticks;
  }

  /** Event time of the next tick. */
  public long nextTickTs() {
    return c.startMs() + tick * c.intervalMs();
  }

  public boolean drained() {
    return drained;
  }

  /** Records still held back on purpose, released at the end of the run. */
  public List<SimRecord> drain() {
    drained = true;
    return disorder.drain();
  }

  /** Simulates the next tick; returns the records released now (this tick's and earlier delayed ones). */
  public List<SimRecord> advance() {
    long ts = nextTickTs();
    List<SimRecord> out = new ArrayList<>(site.nodes().size() * gpusPerNode * 2 + 16);
    applyFaults(new FaultTick(ts, ts - c.intervalMs(), tick == 0));
    for (InventoryRecord inv : effects.inventoryChanges()) {
      out.add(new SimRecord(Topics.INVENTORY, inv.getId(), inv));
    }
    for (io.fleetscope.avro.PortConfig p : effects.portConfigChanges()) {
      out.add(new SimRecord(Topics.FABRIC_CONFIG, FabricPorts.key(p), p));
    }
    if (dtS > PHYSICS_STEP_S) {
      stepSecondsBetweenSamples(ts);
    }
    stepLoops();
    for (int j = 0; j < jobs.length; j++) {
      startOrStopJob(j, ts, out);
      stepJob(j, ts, out);
    }
    double[] newRackHeat = new double[rackHeatKw.length];
    for (int i = 0; i < site.nodes().size(); i++) {
      stepNode(i, ts, out);
      newRackHeat[nodeRack[i]] += nodeWallPowerW[i] / 1000.0;
    }
    for (int r = 0; r < newRackHeat.length; r++) {
      rackHeatKw[r] = newRackHeat[r] + effects.rackAddedKw(r);
    }
    if ((ts - c.startMs()) % c.facilityIntervalMs() == 0) {
      emitPdus(ts, out);
      emitCdus(ts, out);
    }
    if (storage != null && (ts - c.startMs()) % storageIntervalMs == 0) {
      emitStorage(ts, out);
    }
    if (nvme != null && (ts - c.startMs()) % nvmeIntervalMs == 0) {
      emitNvme(ts, out);
    }
    disorder.release(tick, out);
    tick++;
    return out;
  }

  /** One fleet.storage.v1 sample of every node's Lustre client. */
  private void emitStorage(long ts, List<SimRecord> out) {
    for (int i = 0; i < site.nodes().size(); i++) {
      String node = site.nodes().get(i).name();
      JobState job = jobs[nodeJob[i]];
      boolean writing = jobRunning[nodeJob[i]] && job.inCheckpoint(ts);
      out.add(new SimRecord(Topics.STORAGE, node, storage.step(i, ts, cluster, node, ++nodeSeq[i],
          storageIntervalMs / 1000.0, writing, effects.tierLatencyFactor())));
    }
  }

  /** One fleet.storage.v1 sample of every node's NVMe drive; a silent node's agent sends none. */
  private void emitNvme(long ts, List<SimRecord> out) {
    for (int i = 0; i < site.nodes().size(); i++) {
      String node = site.nodes().get(i).name();
      StorageSample s = nvme.step(i, ts, cluster, node, nodeSeq[i] + 1, nvmeIntervalMs / 1000.0, effects.nodeOrNull(i));
      if (!effects.silent(i)) {
        nodeSeq[i]++;
        out.add(new SimRecord(Topics.STORAGE, node, s));
      }
    }
  }

  private void applyFaults(FaultTick t) {
    effects.reset();
    for (Fault f : faults) {
      f.apply(t, effects);
    }
  }

  /**
   * Each loop's flow follows its target with a few seconds' lag (over the sample's last physics step: the seconds
   * before it were stepped by {@link #stepSecondsBetweenSamples}); its supply walks a little, once per sample.
   */
  private void stepLoops() {
    for (int l = 0; l < loopFlowFraction.length; l++) {
      loopFlowFraction[l] = Thermal.lag(loopFlowFraction[l], effects.loopFlowTarget(l), Math.min(dtS, PHYSICS_STEP_S), 4);
      double w = loopWalkC[l] + loopRng[l].gaussian(0.01);
      loopWalkC[l] = Math.max(-0.5, Math.min(0.5, w));
    }
  }

  /** Supply temperature of a loop: set point, slow facility drift (6 h period), random walk, and flow loss. */
  private double supplyTempC(int loop, long ts) {
    return supplyTempC(loop, ts, effects);
  }

  private double supplyTempC(int loop, long ts, TickEffects fx) {
    double hours = (ts - c.startMs()) / 3_600_000.0;
    double drift = 0.8 * Math.sin(2 * Math.PI * hours / 6 + loop);
    return Thermal.SUPPLY_SETPOINT_C + drift + loopWalkC[loop] + 2 * (1 - loopFlowFraction[loop])
        + fx.supplyOffsetC(loop);
  }

  /**
   * Sample intervals above {@link #PHYSICS_STEP_S} (e.g. 10 s, a common DCGM interval): every second before this
   * sample's last one, the heat-physics faults act at that second, each loop's flow follows its target, and every GPU
   * heats with the mean power of the job's phases over that second (steps of 5-8 s), counts its energy and caps its
   * clocks as its temperature demands, as a real GPU does between two readings. The sample's last second is stepped with the sample ({@link #stepGpu}).
   */
  private void stepSecondsBetweenSamples(long ts) {
    int steps = (int) Math.round(dtS / PHYSICS_STEP_S);
    long stepMs = (long) (PHYSICS_STEP_S * 1000);
    for (int k = steps - 1; k >= 1; k--) {
      long t = ts - k * stepMs;
      secondEffects.reset();
      FaultTick second = new FaultTick(t, t - stepMs, false);
      for (Fault f : faults) {
        if (f.heatPhysicsOnly()) {
          f.apply(second, secondEffects);
        }
      }
      for (int l = 0; l < loopFlowFraction.length; l++) {
        loopFlowFraction[l] = Thermal.lag(loopFlowFraction[l], secondEffects.loopFlowTarget(l), PHYSICS_STEP_S, 4);
      }
      double[] heatKw = new double[rackHeatKw.length];
      for (int i = 0; i < site.nodes().size(); i++) {
        double gpuW = heatOneSecond(i, t, stepMs);
        heatKw[nodeRack[i]] += (gpuW + HOST_POWER_W) / PSU_EFFICIENCY / 1000.0;
      }
      for (int r = 0; r < heatKw.length; r++) {
        rackHeatKw[r] = heatKw[r] + secondEffects.rackAddedKw(r);
      }
    }
  }

  /**
   * One second of one node's GPUs between two samples, with {@link #secondEffects}; returns the GPUs' power, W (the
   * rack's heat in the next second).
   */
  private double heatOneSecond(int i, long t, long stepMs) {
    GpuModel model = site.nodes().get(i).model();
    int rack = nodeRack[i];
    int loop = rackLoop[rack];
    double flow = loopFlowFraction[loop];
    double coolant = supplyTempC(loop, t, secondEffects)
        + 0.5 * Thermal.coolantRiseK(rackHeatKw[rack], Thermal.FLOW_PER_RACK_LPM * flow);
    NodeEffects fx = secondEffects.nodeOrNull(i);
    double fraction = meanPowerFractionOver(i, t - stepMs, t);
    double gpuW = 0;
    for (int g = 0; g < gpusPerNode; g++) {
      GpuState s = gpus[i][g];
      double r = Thermal.resistance(Thermal.BASE_R_C_PER_W * s.rVariation, flow) * (fx == null ? 1 : fx.resistanceFactor(g));
      double demand = Math.max(model.idlePowerW(),
          model.tdpW() * fraction * s.powerVariation * secondEffects.rackPowerFactor(rack));
      double power = Math.min(demand * s.capFactor, model.tdpW());
      s.tempC = Thermal.lag(s.tempC, Thermal.steadyStateC(coolant, r, power, s.hotspotC), PHYSICS_STEP_S,
          Thermal.GPU_TAU_S);
      s.consume(power, PHYSICS_STEP_S);
      s.controlClocks(model, PHYSICS_STEP_S);
      gpuW += power;
    }
    return gpuW;
  }

  /**
   * A job that starts this tick is allocated its nodes again (one fleet.jobs.v1 record per node, from
   * the node's agent) and writes its first checkpoint an interval later; a job that stops this tick
   * completes a running checkpoint now and leaves its nodes (records with no allocation).
   */
  private void startOrStopJob(int j, long ts, List<SimRecord> out) {
    JobState job = jobs[j];
    boolean running = !effects.jobStopped(j);
    if (running == jobRunning[j]) {
      return;
    }
    jobRunning[j] = running;
    if (running) {
      job.nextCkptTs = ts + c.checkpointIntervalMs();
    } else if (job.ckptStartTs >= 0) {
      job.ckptEndTs = ts;
    }
    for (String name : job.job.nodes()) {
      SiteTopology.Node node = site.node(name);
      if (!effects.silent(node.index())) {
        out.add(new SimRecord(Topics.JOBS, name, site.jobAllocation(node, ts, ++nodeSeq[node.index()], running)));
      }
    }
  }

  /**
   * Finishes a job's running checkpoint when due, and starts the next one while the job runs;
   * reported by its first node.
   */
  private void stepJob(int j, long ts, List<SimRecord> out) {
    JobState job = jobs[j];
    int first = site.node(job.job.nodes().get(0)).index();
    boolean silent = effects.silent(first);
    if (job.ckptStartTs >= 0 && ts >= job.ckptEndTs) {
      if (!silent) {
        out.add(checkpoint(first, job, job.ckptEndTs, "completed", job.ckptEndTs));
      }
      job.nextCkptTs = job.ckptEndTs + c.checkpointIntervalMs();
      job.ckptStartTs = -1;
    }
    if (jobRunning[j] && job.ckptStartTs < 0 && ts >= job.nextCkptTs) {
      Rng r = nodeRng[first];
      double bps = job.tierBytesPerS * effects.checkpointFactor(j) * r.uniform(0.9, 1.1);
      job.ckptStartTs = ts;
      job.ckptEndTs = ts + Math.max(c.intervalMs(), (long) (job.bytes / bps * 1000));
      job.step += (long) ((ts - c.startMs()) / 1000.0 / job.stepPeriodS) % 1000 + 100;
      if (!silent) {
        out.add(checkpoint(first, job, ts, "started", null));
      }
    }
  }

  private SimRecord checkpoint(int nodeIdx, JobState job, long ts, String status, Long finished) {
    String node = site.nodes().get(nodeIdx).name();
    return new SimRecord(Topics.CKPT, node, AgentRecords.checkpoint(ts, cluster, node, ++nodeSeq[nodeIdx], job,
        job.job.nodes().size() * gpusPerNode, status, finished));
  }

  /** Steps a node's GPUs and ports; its wall power heats its rack in the next tick. */
  private void stepNode(int i, long ts, List<SimRecord> out) {
    SiteTopology.Node node = site.nodes().get(i);
    NodeEffects fx = effects.nodeOrNull(i);
    int rack = nodeRack[i];
    int loop = rackLoop[rack];
    double flow = loopFlowFraction[loop];
    double rackFlowLpm = Thermal.FLOW_PER_RACK_LPM * flow;
    double coolantLocal = supplyTempC(loop, ts) + 0.5 * Thermal.coolantRiseK(rackHeatKw[rack], rackFlowLpm);
    Phase phase = jobRunning[nodeJob[i]] ? jobs[nodeJob[i]].phaseAt(ts, c.startMs()) : Phase.IDLE;
    NodeTick n = new NodeTick(i, node, phase, rack, flow, coolantLocal, fx,
        fx != null && fx.silent());
    if (fx != null) {
      fx.beforeStep(gpus[i], ports[i]);
    }
    double gpuPowerSum = 0;
    for (int g = 0; g < gpusPerNode; g++) {
      gpuPowerSum += stepGpu(n, g, ts, out);
    }
    nodeWallPowerW[i] = (gpuPowerSum + HOST_POWER_W + nodeRng[i].gaussian(25)) / PSU_EFFICIENCY;
    for (int h = 0; h < gpusPerNode; h++) {
      stepPort(n, h, ts, out);
    }
    if (nvlinkLinks > 0) {
      for (int g = 0; g < gpusPerNode; g++) {
        stepNvlink(n, g, ts, out);
      }
    }
  }

  /**
   * Steps one GPU's NVLink links: this tick's NVLink traffic of the GPU spread over its active
   * links, the faults' errors. Draws only from the GPU's own stream after its other draws, and only
   * in runs that simulate NVLink.
   */
  private void stepNvlink(NodeTick n, int g, long ts, List<SimRecord> out) {
    int i = n.index();
    GpuState s = gpus[i][g];
    if (s.links == null) {
      s.links = new long[nvlinkLinks][3];
    }
    NvlinkStep step = new NvlinkStep(nvlinkLinks);
    if (n.effects() != null) {
      n.effects().onNvlink(g, step, s.rng, dtS);
    }
    long[][] links = s.links;
    long gpuTx = 0;
    long gpuRx = 0;
    for (long[] l : links) {
      gpuTx += l[0];
      gpuRx += l[1];
    }
    int active = 0;
    for (boolean down : step.inactive) {
      active += down ? 0 : 1;
    }
    long addTx = Math.max(0, s.nvlinkTx - gpuTx);
    long addRx = Math.max(0, s.nvlinkRx - gpuRx);
    for (int l = 0; l < nvlinkLinks; l++) {
      if (!step.inactive[l] && active > 0) {
        links[l][0] += addTx / active;
        links[l][1] += addRx / active;
      }
      links[l][2] += step.replayErrors[l];
    }
    if (n.silent()) {
      return;
    }
    String node = n.node().name();
    for (int l = 0; l < nvlinkLinks; l++) {
      emitRaw(i, new SimRecord(Topics.NVLINK, node, AgentRecords.nvlink(ts, cluster, n.node(), ++nodeSeq[i], g, l,
          step.inactive[l], links[l][0], links[l][1], links[l][2])), out);
    }
  }

  /** Steps one GPU (power, temperature, clocks, counters, the faults' effects); returns its power. */
  private double stepGpu(NodeTick n, int g, long ts, List<SimRecord> out) {
    GpuState s = gpus[n.index()][g];
    GpuModel model = n.node().model();
    Phase phase = n.phase();
    Rng gr = s.rng;
    double noise = 1 + gr.gaussian(0.02);
    double demand = model.tdpW() * phase.powerFraction * s.powerVariation * effects.rackPowerFactor(n.rack()) * noise;
    demand = Math.max(model.idlePowerW(), demand);
    double limit = model.tdpW();
    double power = Math.min(demand * s.capFactor, limit);
    boolean powerCapped = demand * s.capFactor > limit;
    double rFactor = n.effects() == null ? 1 : n.effects().resistanceFactor(g);
    double r = Thermal.resistance(Thermal.BASE_R_C_PER_W * s.rVariation, n.flowFraction()) * rFactor;
    // the die heats with the power of the whole last physics step (the reading is the power at the sample's instant)
    double heatFraction = meanPowerFractionOver(n.index(), ts - (long) (Math.min(dtS, PHYSICS_STEP_S) * 1000), ts);
    double heatDemand = Math.max(model.idlePowerW(),
        model.tdpW() * heatFraction * s.powerVariation * effects.rackPowerFactor(n.rack()) * noise);
    double heatPower = Math.min(heatDemand * s.capFactor, limit);
    double target = n.coolantC() + r * heatPower + s.hotspotC;
    double lastStepS = Math.min(dtS, PHYSICS_STEP_S); // the seconds before it: stepSecondsBetweenSamples
    s.tempC = Thermal.lag(s.tempC, target, lastStepS, Thermal.GPU_TAU_S);
    s.consume(heatPower, lastStepS);
    s.powerW = power;
    double reportedTemp = s.tempC + gr.gaussian(0.3);
    if (c.blips() && gr.chance(1e-5)) {
      reportedTemp += 3;
    }
    s.controlClocks(model, lastStepS);
    long reasons = s.throttleReasons(model, powerCapped);
    double clock = s.smClockMhz(model, phase);
    double nv = phase.nvlinkBytesPerS * (1 + gr.gaussian(0.03)) * dtS;
    s.nvlinkTx += (long) Math.max(0, nv);
    s.nvlinkRx += (long) Math.max(0, nv * (1 + gr.gaussian(0.01)));
    if (c.blips() && gr.chance(2e-6)) {
      s.sbe += 1;
    }
    if (c.blips() && gr.chance(1e-5)) {
      s.pcieReplay += 1;
    }
    xids.clear();
    if (n.effects() != null) {
      n.effects().onGpuCounters(g, s, gr, dtS, xids);
    }
    if (n.silent()) {
      return power;
    }
    int i = n.index();
    String node = n.node().name();
    double memTemp = s.tempC + 3 + 4 * phase.powerFraction + gr.gaussian(0.3);
    double util = phase.utilPct + gr.gaussian(1.0);
    double memUtil = phase.memUtilPct + gr.gaussian(1.0);
    AgentRecords.GpuReadings readings =
        new AgentRecords.GpuReadings(reportedTemp, memTemp, power, limit, clock, util, memUtil, reasons);
    if (n.effects() != null) {
      readings = n.effects().onReadings(g, readings);
    }
    emitRaw(i, new SimRecord(Topics.GPU, node,
        AgentRecords.gpu(ts, cluster, n.node(), ++nodeSeq[i], g, s, readings)), out);
    for (int x : xids.list()) {
      long seq = ++nodeSeq[i];
      long pid = 10_000L + gr.nextInt(50_000);
      out.add(new SimRecord(Topics.GPU_XID, node, AgentRecords.xid(ts, cluster, node, seq, g, x, pid)));
    }
    return power;
  }

  /** Mean fraction of TDP a node's GPUs draw over {@code [fromTs, toTs)}: its job's phases by their share, else idle. */
  private double meanPowerFractionOver(int node, long fromTs, long toTs) {
    return jobRunning[nodeJob[node]] ? jobs[nodeJob[node]].meanPowerFractionOver(fromTs, toTs, c.startMs())
        : Phase.IDLE.powerFraction;
  }

  /** Steps one HCA port: its traffic in the job's phase, the faults' effects, and RoCE counters. */
  private void stepPort(NodeTick n, int h, long ts, List<SimRecord> out) {
    Rng rng = nodeRng[n.index()];
    PortState p = ports[n.index()][h];
    double frac = n.phase().fabricFraction * (1 + rng.gaussian(0.03));
    PortStep step = portStep.begin(p, rng, dtS, c.site().linkRateGbps(), frac, n.silent());
    if (n.effects() != null) {
      n.effects().onPort(h, step);
    }
    double lineBytesPerS = step.rateGbps * 1e9 / 8;
    frac = step.trafficFraction;
    long tx = (long) Math.max(0, frac * lineBytesPerS * dtS);
    long rx = (long) Math.max(0, frac * lineBytesPerS * dtS * (1 + rng.gaussian(0.01)));
    p.xmitBytes += tx;
    p.rcvBytes += rx;
    p.xmitPkts += tx / 4096;
    p.rcvPkts += rx / 4096;
    p.xmitWait += (long) (Math.max(0, frac) * 2e5 * dtS);
    if (c.blips() && rng.chance(1e-5)) {
      p.symbolErrors += 1;
    }
    if (roce) {
      if (step.congestion != null) {
        step.congestion.count(p, rng, dtS);
      } else if (n.phase() == Phase.ALL_REDUCE) {
        long ecn = rng.poisson(2 * dtS);
        p.ecn += ecn;
        p.cnpSent += ecn;
        p.cnpHandled += ecn;
        p.pfcRx += rng.poisson(1 * dtS);
      }
    }
    if (step.silent) {
      return;
    }
    String node = n.node().name();
    emitRaw(n.index(), new SimRecord(Topics.IB, node,
        AgentRecords.port(ts, cluster, node, ++nodeSeq[n.index()], h, linkLayer, roce, step)), out);
  }

  /** Emits a node's (nodeIdx >= 0) or the facility agents' (-1) raw record now or later, as {@link Disorder} draws. */
  private void emitRaw(int nodeIdx, SimRecord r, List<SimRecord> out) {
    disorder.emit(r, nodeIdx >= 0 ? delayRng[nodeIdx] : facilityRng, tick, out);
  }

  /** Every metered outlet: half its node's wall power plus its share of a rack's added load. */
  private void emitPdus(long ts, List<SimRecord> out) {
    double dtFacilityH = c.facilityIntervalMs() / 3_600_000.0;
    for (SiteTopology.Pdu pdu : site.pdus()) {
      SiteTopology.Rack rack = site.rack(pdu.rack());
      double addedPerOutletW = effects.rackAddedKw(rack.index()) * 1000 / Math.max(1, 2 * rack.nodes().size());
      int o = 0;
      for (Map.Entry<String, String> e : pdu.outletToNode().entrySet()) {
        int ni = site.node(e.getValue()).index();
        double w = nodeWallPowerW[ni] / 2 + addedPerOutletW + facilityRng.gaussian(5);
        double v = 230 + facilityRng.gaussian(0.8);
        double energy = outletEnergyWh.merge(pdu.name() + "/" + e.getKey(), w * dtFacilityH, Double::sum);
        long seq = rowSeq.merge(pdu.row(), 1L, Long::sum);
        emitRaw(-1, new SimRecord(Topics.PDU, pdu.name(),
            AgentRecords.outlet(ts, cluster, pdu, seq, e.getKey(), "L" + (o++ % 3 + 1), w, v, energy)), out);
      }
    }
  }

  /** Every CDU: the heat of the racks on its loop at the loop's current flow. */
  private void emitCdus(long ts, List<SimRecord> out) {
    for (int l = 0; l < site.cdus().size(); l++) {
      SiteTopology.Cdu cdu = site.cdus().get(l);
      double heat = 0;
      for (String rk : cdu.racks()) {
        heat += rackHeatKw[site.rack(rk).index()];
      }
      double f = loopFlowFraction[l];
      double flow = Thermal.FLOW_PER_RACK_LPM * cdu.racks().size() * f * (1 + facilityRng.gaussian(0.01));
      double supply = supplyTempC(l, ts) + facilityRng.gaussian(0.05);
      double returnTemp = supply + Thermal.coolantRiseK(heat, Math.max(flow, 0.5));
      long seq = rowSeq.merge(cdu.row(), 1L, Long::sum);
      emitRaw(-1, new SimRecord(Topics.COOLANT, cdu.name(),
          AgentRecords.coolant(ts, cluster, cdu, seq, supply, returnTemp, flow, f, heat)), out);
    }
  }
}
