package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.PduReading;
import io.fleetscope.loadgen.catalog.GpuModel;
import io.fleetscope.loadgen.scenario.FaultPlan;
import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of the simulation, advanced tick by tick. All randomness comes from per-entity
 * {@link Rng} streams seeded from the run seed and the entity id, consumed in a fixed order, so a
 * run is a pure function of its {@link SimConfig}.
 */
public final class SimRun {
  private static final String SOURCE = "loadgen";
  private static final double HOST_POWER_W = 1400;
  private static final double PSU_EFFICIENCY = 0.95;

  private final SimConfig c;
  private final SiteTopology site;
  private final List<ResolvedFault> faults;
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
  private final double[] nodeWallPowerW;
  private final JobState[] jobs;
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
  private final TreeMap<Long, List<SimRecord>> delayed = new TreeMap<>();

  /** Per-tick effects of the active faults, rebuilt every tick (faults are few). */
  private final Map<Integer, NodeFx> fx = new HashMap<>();
  private final List<io.fleetscope.avro.InventoryRecord> inventoryChanges = new ArrayList<>();
  private final double[] rackAddedKw;
  private final double[] rackPowerFactor;
  private final double[] loopFlowTarget;
  private final double[] jobCkptFactor;

  private static final class NodeFx {
    boolean silent;
    boolean counterReset;
    final Map<Integer, Double> gpuRFactor = new HashMap<>();
    final Map<Integer, Double> sbePerMin = new HashMap<>();
    final Map<Integer, List<Integer>> xids = new HashMap<>();
    final Map<Integer, Double> xidPerMin = new HashMap<>();
    final List<Integer> dbeGpus = new ArrayList<>();
    final List<Integer> remapFailGpus = new ArrayList<>();
    final Map<Integer, Boolean> portDown = new HashMap<>();
    final Map<Integer, Boolean> portDownStarts = new HashMap<>();
    final Map<Integer, Double> portDegradedRate = new HashMap<>();
    final Map<Integer, Double> portSymbolPerMin = new HashMap<>();
    final Map<Integer, Boolean> portDegradeStarts = new HashMap<>();
    int sharedFrom = -1;
    int sharedTo = -1;
    final Map<Integer, double[]> roce = new HashMap<>();
  }

  SimRun(SimConfig c, SiteTopology site, FaultPlan plan) {
    this.c = c;
    this.site = site;
    this.faults = plan.faults();
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
        ports[i][g] = new PortState(Rng.of(c.seed(), "port/" + node.name() + "/" + g));
      }
    }
    rackHeatKw = new double[site.racks().size()];
    for (SiteTopology.Rack r : site.racks()) {
      rackHeatKw[r.index()] = r.nodes().size() * 6.0;
    }
    int loops = site.cdus().size();
    loopFlowFraction = new double[loops];
    loopFlowTarget = new double[loops];
    loopWalkC = new double[loops];
    loopRng = new Rng[loops];
    for (int l = 0; l < loops; l++) {
      loopFlowFraction[l] = 1;
      loopRng[l] = Rng.of(c.seed(), "loop/" + site.cdus().get(l).loop());
    }
    // start from thermal steady state at the average training power (a running fleet, not a cold start)
    for (int i = 0; i < n; i++) {
      SiteTopology.Node node = site.nodes().get(i);
      JobState job = jobs[nodeJob[i]];
      double avgFraction = job.computeFraction * Phase.COMPUTE.powerFraction
          + (1 - job.computeFraction) * Phase.ALL_REDUCE.powerFraction;
      double coolant = Thermal.SUPPLY_SETPOINT_C
          + 0.5 * Thermal.coolantRiseK(rackHeatKw[nodeRack[i]], Thermal.FLOW_PER_RACK_LPM);
      for (int g = 0; g < gpusPerNode; g++) {
        GpuState s = gpus[i][g];
        double r = Thermal.BASE_R_C_PER_W * s.rVariation;
        s.tempC = coolant + r * node.model().tdpW() * avgFraction * s.powerVariation + s.hotspotC;
      }
    }
    facilityRng = Rng.of(c.seed(), "facility");
    rackAddedKw = new double[site.racks().size()];
    rackPowerFactor = new double[site.racks().size()];
    jobCkptFactor = new double[jobs.length];
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
    List<SimRecord> out = new ArrayList<>();
    delayed.values().forEach(out::addAll);
    delayed.clear();
    drained = true;
    return out;
  }

  /** Simulates the next tick; returns the records released now (this tick's and earlier delayed ones). */
  public List<SimRecord> advance() {
    long ts = nextTickTs();
    long prev = ts - c.intervalMs();
    List<SimRecord> out = new ArrayList<>(site.nodes().size() * gpusPerNode * 2 + 16);
    applyFaults(ts, prev);
    for (io.fleetscope.avro.InventoryRecord inv : inventoryChanges) {
      out.add(new SimRecord(Topics.INVENTORY, inv.getId(), inv));
    }
    inventoryChanges.clear();
    stepFacility(ts);
    for (int j = 0; j < jobs.length; j++) {
      stepJob(j, ts, out);
    }
    double[] newRackHeat = new double[rackHeatKw.length];
    for (int i = 0; i < site.nodes().size(); i++) {
      stepNode(i, ts, prev, out);
      newRackHeat[nodeRack[i]] += nodeWallPowerW[i] / 1000.0;
    }
    for (int r = 0; r < newRackHeat.length; r++) {
      rackHeatKw[r] = newRackHeat[r] + rackAddedKw[r];
    }
    if ((ts - c.startMs()) % c.facilityIntervalMs() == 0) {
      emitFacility(ts, out);
    }
    List<SimRecord> due = delayed.remove(tick);
    if (due != null) {
      out.addAll(due);
    }
    tick++;
    return out;
  }

  private void applyFaults(long ts, long prev) {
    fx.clear();
    java.util.Arrays.fill(rackAddedKw, 0);
    java.util.Arrays.fill(rackPowerFactor, 1);
    java.util.Arrays.fill(loopFlowTarget, 1);
    java.util.Arrays.fill(jobCkptFactor, 1);
    for (ResolvedFault f : faults) {
      FaultSpec s = f.spec();
      boolean active = f.activeAt(ts);
      boolean starts = ResolvedFault.crosses(f.startTs(), prev, ts);
      switch (f.type()) {
        case THERMAL_RUNAWAY -> {
          if (active) {
            double minutes = (ts - f.startTs()) / 60_000.0;
            node(f).gpuRFactor.put(f.gpu(), 1 + s.param("r_growth_per_min", 0.5) * minutes);
          }
        }
        case CDU_FLOW_LOSS -> {
          if (active) {
            double ramp = s.durationParam("ramp", java.time.Duration.ofSeconds(20)).toMillis();
            double p = Math.min(1, (ts - f.startTs()) / Math.max(1, ramp));
            double target = 1 - (1 - s.param("flow_fraction", 0.15)) * p;
            loopFlowTarget[f.loop()] = Math.min(loopFlowTarget[f.loop()], target);
          }
        }
        case RACK_POWER_OVER_COOLING -> {
          if (active) {
            rackAddedKw[f.rack()] += s.param("added_kw", 20);
            rackPowerFactor[f.rack()] *= s.param("gpu_power_factor", 1.1);
          }
        }
        case ECC_DEGRADATION -> {
          if (active) {
            double a = s.param("sbe_per_min_start", 2);
            double b = s.param("sbe_per_min_end", 60);
            node(f).sbePerMin.put(f.gpu(), a + (b - a) * f.progress(ts));
          }
          if (ResolvedFault.crosses(FaultPlan.dbeAt(f), prev, ts)) {
            node(f).dbeGpus.add(f.gpu());
          }
        }
        case ROW_REMAP_FAILURE -> {
          if (starts) {
            node(f).remapFailGpus.add(f.gpu());
          }
        }
        case XID_STORM -> {
          if (active) {
            node(f).xids.put(f.gpu(), s.intListParam("xids", List.of(74)));
            node(f).xidPerMin.put(f.gpu(), s.param("rate_per_min", 20));
          }
        }
        case IB_LINK_DOWN -> {
          if (active) {
            node(f).portDown.put(f.rail(), true);
          }
          if (starts) {
            node(f).portDownStarts.put(f.rail(), true);
          }
        }
        case IB_LINK_DEGRADED -> {
          if (active) {
            node(f).portDegradedRate.put(f.rail(), s.param("rate_gbps", c.site().linkRateGbps() / 2));
            node(f).portSymbolPerMin.put(f.rail(), s.param("symbol_errors_per_min", 30));
          }
          if (starts) {
            node(f).portDegradeStarts.put(f.rail(), true);
          }
        }
        case RAIL_SHARED_HCA -> {
          int from = (int) s.param("rail_from", 1);
          if (active) {
            NodeFx nf = node(f);
            nf.sharedFrom = from;
            nf.sharedTo = (int) s.param("rail_to", 0);
          }
          // the agent republishes its node's inventory on change: rail_from's HCA gone, then back
          if (starts || (f.startTs() <= c.startMs() && tick == 0)) {
            inventoryChanges.add(site.nodeInventory(site.nodes().get(f.node()), ts, from));
          }
          if (ResolvedFault.crosses(f.endTs(), prev, ts) && f.endTs() < c.endMs()) {
            inventoryChanges.add(site.nodeInventory(site.nodes().get(f.node()), ts, -1));
          }
        }
        case ROCE_CONGESTION -> {
          if (active) {
            double[] v = {s.param("throughput_factor", 0.5), s.param("pfc_pause_per_s", 50_000),
                s.param("ecn_marks_per_s", 20_000)};
            if (f.node() != null) {
              node(f).roce.put(f.rail(), v);
            } else {
              for (int i = 0; i < site.nodes().size(); i++) {
                fx.computeIfAbsent(i, k -> new NodeFx()).roce.put(f.rail(), v);
              }
            }
          }
        }
        case SLOW_CHECKPOINT_TIER -> {
          if (active) {
            jobCkptFactor[f.job()] *= s.param("throughput_factor", 0.2);
          }
        }
        case NODE_SILENT -> {
          if (active) {
            node(f).silent = true;
          }
        }
        case COUNTER_RESET -> {
          if (starts) {
            node(f).counterReset = true;
          }
        }
        case MIXED_GPU_MODELS -> { }
        default -> throw new IllegalStateException("unhandled fault type " + f.type());
      }
    }
  }

  private NodeFx node(ResolvedFault f) {
    return fx.computeIfAbsent(f.node(), k -> new NodeFx());
  }

  private void stepFacility(long ts) {
    for (int l = 0; l < loopFlowFraction.length; l++) {
      loopFlowFraction[l] = Thermal.lag(loopFlowFraction[l], loopFlowTarget[l], dtS, 4);
      double w = loopWalkC[l] + loopRng[l].gaussian(0.01);
      loopWalkC[l] = Math.max(-0.5, Math.min(0.5, w));
    }
  }

  /** Supply temperature of a loop: set point, slow facility drift (6 h period), random walk, and flow loss. */
  private double supplyTempC(int loop, long ts) {
    double hours = (ts - c.startMs()) / 3_600_000.0;
    double drift = 0.8 * Math.sin(2 * Math.PI * hours / 6 + loop);
    return Thermal.SUPPLY_SETPOINT_C + drift + loopWalkC[loop] + 2 * (1 - loopFlowFraction[loop]);
  }

  private void stepJob(int j, long ts, List<SimRecord> out) {
    JobState job = jobs[j];
    int first = site.node(job.job.nodes().get(0)).index();
    boolean silent = fx.containsKey(first) && fx.get(first).silent;
    if (job.ckptStartTs >= 0 && ts >= job.ckptEndTs) {
      if (!silent) {
        out.add(ckpt(first, job, job.ckptEndTs, "completed", job.ckptEndTs));
      }
      job.nextCkptTs = job.ckptEndTs + c.checkpointIntervalMs();
      job.ckptStartTs = -1;
    }
    if (job.ckptStartTs < 0 && ts >= job.nextCkptTs) {
      Rng r = nodeRng[first];
      double bps = JobState.TIER_BYTES_PER_S * jobCkptFactor[j] * r.uniform(0.9, 1.1);
      job.ckptStartTs = ts;
      job.ckptEndTs = ts + Math.max(c.intervalMs(), (long) (job.bytes / bps * 1000));
      job.step += (long) ((ts - c.startMs()) / 1000.0 / job.stepPeriodS) % 1000 + 100;
      if (!silent) {
        out.add(ckpt(first, job, ts, "started", null));
      }
    }
  }

  private SimRecord ckpt(int nodeIdx, JobState job, long ts, String status, Long finished) {
    SiteTopology.Node node = site.nodes().get(nodeIdx);
    CheckpointEvent e = new CheckpointEvent();
    e.setTs(ts);
    e.setCluster(cluster);
    e.setNode(node.name());
    e.setAgentSeq(++nodeSeq[nodeIdx]);
    e.setSource(SOURCE);
    e.setJob(job.job.name());
    e.setStep(job.step);
    e.setBytes(job.bytes);
    e.setStartedTs(job.ckptStartTs);
    e.setFinishedTs(finished);
    e.setTier(job.tier);
    e.setStatus(status);
    e.setRanks(job.job.nodes().size() * gpusPerNode);
    return new SimRecord(Topics.CKPT, node.name(), e);
  }

  private void stepNode(int i, long ts, long prev, List<SimRecord> out) {
    SiteTopology.Node node = site.nodes().get(i);
    NodeFx nf = fx.get(i);
    boolean silent = nf != null && nf.silent;
    Rng rng = nodeRng[i];
    int rack = nodeRack[i];
    int loop = rackLoop[rack];
    Phase phase = jobs[nodeJob[i]].phaseAt(ts, c.startMs());
    double flow = loopFlowFraction[loop];
    double supply = supplyTempC(loop, ts);
    double rackFlowLpm = Thermal.FLOW_PER_RACK_LPM * flow;
    double coolantLocal = supply + 0.5 * Thermal.coolantRiseK(rackHeatKw[rack], rackFlowLpm);
    GpuModel model = node.model();
    double gpuPowerSum = 0;
    if (nf != null && nf.counterReset) {
      for (int g = 0; g < gpusPerNode; g++) {
        GpuState s = gpus[i][g];
        s.sbe = 0;
        s.dbe = 0;
        s.nvlinkTx = 0;
        s.nvlinkRx = 0;
        s.pcieReplay = 0;
        ports[i][g].reset();
      }
    }
    for (int g = 0; g < gpusPerNode; g++) {
      GpuState s = gpus[i][g];
      Rng gr = s.rng;
      double demand = model.tdpW() * phase.powerFraction * s.powerVariation * rackPowerFactor[rack]
          * (1 + gr.gaussian(0.02));
      demand = Math.max(model.idlePowerW(), demand);
      double limit = model.tdpW();
      double power = Math.min(demand * s.capFactor, limit);
      boolean powerCapped = demand * s.capFactor > limit;
      double rFactor = nf == null ? 1 : nf.gpuRFactor.getOrDefault(g, 1.0);
      double r = Thermal.resistance(Thermal.BASE_R_C_PER_W * s.rVariation, flow) * rFactor;
      double target = coolantLocal + r * power + s.hotspotC;
      s.tempC = Thermal.lag(s.tempC, target, dtS, Thermal.GPU_TAU_S);
      s.powerW = power;
      gpuPowerSum += power;
      double reportedTemp = s.tempC + gr.gaussian(0.3);
      if (c.blips() && gr.chance(1e-5)) {
        reportedTemp += 3;
      }
      // clock-event control: SW thermal capping above max operating temp is gentle, HW slowdown is hard,
      // reaching shutdown temp clamps at once; recovery is slow
      if (s.tempC >= model.shutdownTempC()) {
        s.capFactor = 0.3;
      } else if (s.tempC >= model.slowdownTempC()) {
        s.capFactor = Math.max(0.3, s.capFactor - 0.05 * dtS);
      } else if (s.tempC > model.maxOperatingTempC()) {
        s.capFactor = Math.max(0.3, s.capFactor - 0.01 * dtS);
      } else if (s.tempC < model.maxOperatingTempC() - 3) {
        s.capFactor = Math.min(1.0, s.capFactor + 0.01 * dtS);
      }
      long reasons = 0;
      if (s.tempC > model.maxOperatingTempC()) {
        reasons |= 0x20;
      }
      if (s.tempC >= model.slowdownTempC()) {
        reasons |= 0x40;
      }
      if (powerCapped) {
        reasons |= 0x4;
      }
      double clock = model.maxSmClockMhz() * (phase == Phase.COMPUTE ? 0.92 : 0.98)
          * (s.capFactor < 1 ? Math.sqrt(s.capFactor) : 1);
      clock = Math.round(clock / 15) * 15.0;
      // counters
      double nv = phase.nvlinkBytesPerS * (1 + gr.gaussian(0.03)) * dtS;
      s.nvlinkTx += (long) Math.max(0, nv);
      s.nvlinkRx += (long) Math.max(0, nv * (1 + gr.gaussian(0.01)));
      if (c.blips() && gr.chance(2e-6)) {
        s.sbe += 1;
      }
      if (c.blips() && gr.chance(1e-5)) {
        s.pcieReplay += 1;
      }
      List<Integer> xidsNow = null;
      if (nf != null) {
        Double sbeRate = nf.sbePerMin.get(g);
        if (sbeRate != null) {
          s.sbeCarry += sbeRate / 60.0 * dtS;
          long k = gr.poisson(s.sbeCarry);
          s.sbeCarry = Math.max(0, s.sbeCarry - k);
          long before = s.sbe;
          s.sbe += k;
          if (s.sbe / 50 > before / 50) {
            s.remappedCorrectable += 1;
          }
        }
        if (nf.dbeGpus.contains(g)) {
          s.dbe += 1;
          s.retiredDbe += 1;
          s.remapPending = true;
          xidsNow = new ArrayList<>(List.of(48, 63));
        }
        if (nf.remapFailGpus.contains(g)) {
          s.remapFailure = true;
          s.remapPending = true;
          s.remappedUncorrectable += 1;
          xidsNow = new ArrayList<>(List.of(64));
        }
        Double xidRate = nf.xidPerMin.get(g);
        if (xidRate != null) {
          long k = gr.poisson(xidRate / 60.0 * dtS);
          List<Integer> kinds = nf.xids.get(g);
          if (k > 0 && xidsNow == null) {
            xidsNow = new ArrayList<>();
          }
          for (int x = 0; x < k; x++) {
            xidsNow.add(kinds.get(gr.nextInt(kinds.size())));
          }
        }
      }
      if (silent) {
        continue;
      }
      GpuSample gs = new GpuSample();
      gs.setTs(ts);
      gs.setCluster(cluster);
      gs.setNode(node.name());
      gs.setAgentSeq(++nodeSeq[i]);
      gs.setSource(SOURCE);
      gs.setGpu(g);
      gs.setUuid(node.gpuUuids().get(g));
      gs.setModel(model.name());
      gs.setPciBusId(SiteTopology.pciBusIdOf(g));
      gs.setTempC((double) Math.round(reportedTemp));
      gs.setMemTempC((double) Math.round(s.tempC + 3 + 4 * phase.powerFraction + gr.gaussian(0.3)));
      gs.setPowerW(Math.round(power * 100) / 100.0);
      gs.setPowerLimitW(limit);
      gs.setSmClockMhz(clock);
      gs.setMemClockMhz(model.memClockMhz());
      double util = phase.utilPct + gr.gaussian(1.0);
      gs.setUtilPct((double) Math.max(0, Math.min(100, Math.round(util))));
      gs.setMemUtilPct((double) Math.max(0, Math.round(phase.memUtilPct + gr.gaussian(1.0))));
      gs.setMemUsedMib((double) Math.round(model.memTotalMib() * 0.92));
      gs.setMemTotalMib(model.memTotalMib());
      gs.setThrottleReasons(reasons);
      gs.setEccSbeTotal(s.sbe);
      gs.setEccDbeTotal(s.dbe);
      gs.setRetiredPagesSbe(s.retiredSbe);
      gs.setRetiredPagesDbe(s.retiredDbe);
      gs.setRowRemapPending(s.remapPending);
      gs.setRowRemapFailure(s.remapFailure);
      gs.setRemappedRowsCorrectable(s.remappedCorrectable);
      gs.setRemappedRowsUncorrectable(s.remappedUncorrectable);
      gs.setNvlinkTxBytes(s.nvlinkTx);
      gs.setNvlinkRxBytes(s.nvlinkRx);
      gs.setPcieReplayTotal(s.pcieReplay);
      emitRaw(i, new SimRecord(Topics.GPU, node.name(), gs), out);
      if (xidsNow != null) {
        for (int x : xidsNow) {
          GpuXid xr = new GpuXid();
          xr.setTs(ts);
          xr.setCluster(cluster);
          xr.setNode(node.name());
          xr.setAgentSeq(++nodeSeq[i]);
          xr.setSource(SOURCE);
          xr.setGpu(g);
          xr.setPciBusId(SiteTopology.pciBusIdOf(g));
          xr.setXid(x);
          xr.setMessage(XidCatalog.message(x));
          xr.setPid(10_000L + gr.nextInt(50_000));
          out.add(new SimRecord(Topics.GPU_XID, node.name(), xr));
        }
      }
    }
    nodeWallPowerW[i] = (gpuPowerSum + HOST_POWER_W + rng.gaussian(25)) / PSU_EFFICIENCY;
    for (int h = 0; h < gpusPerNode; h++) {
      stepPort(i, h, node, phase, nf, silent, out);
    }
  }

  private void stepPort(int i, int h, SiteTopology.Node node, Phase phase, NodeFx nf, boolean silent,
      List<SimRecord> out) {
    PortState p = ports[i][h];
    Rng rng = nodeRng[i];
    double nominal = c.site().linkRateGbps();
    double rate = nominal;
    String state = "ACTIVE";
    String phys = roce ? "LinkUp" : "LinkUp";
    double frac = phase.fabricFraction * (1 + rng.gaussian(0.03));
    double[] congestion = null;
    if (nf != null) {
      if (nf.portDownStarts.containsKey(h)) {
        p.linkDowned += 1;
      }
      if (nf.portDegradeStarts.containsKey(h)) {
        p.linkErrorRecovery += 1;
      }
      if (nf.portDown.containsKey(h)) {
        state = "DOWN";
        phys = "Polling";
        frac = 0;
      }
      Double degraded = nf.portDegradedRate.get(h);
      if (degraded != null) {
        rate = degraded;
        p.symbolErrors += rng.poisson(nf.portSymbolPerMin.get(h) / 60.0 * dtS);
      }
      if (nf.sharedFrom == h) {
        frac = 0;
        silent = true;
      } else if (nf.sharedTo == h) {
        frac = Math.min(0.97, 2 * frac);
      }
      congestion = nf.roce.get(h);
      if (congestion != null) {
        frac *= congestion[0];
      }
    }
    double lineBytesPerS = rate * 1e9 / 8;
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
      if (congestion != null) {
        p.pfcRx += rng.poisson(congestion[1] * dtS);
        p.pfcTx += rng.poisson(congestion[1] * 0.4 * dtS);
        long ecn = rng.poisson(congestion[2] * dtS);
        p.ecn += ecn;
        p.cnpSent += ecn / 2;
        p.cnpHandled += ecn / 2;
        p.xmitWait += (long) (5e6 * dtS);
      } else if (phase == Phase.ALL_REDUCE) {
        long ecn = rng.poisson(2 * dtS);
        p.ecn += ecn;
        p.cnpSent += ecn;
        p.cnpHandled += ecn;
        p.pfcRx += rng.poisson(1 * dtS);
      }
    }
    if (silent) {
      return;
    }
    IbPortSample s = new IbPortSample();
    s.setTs(nextTickTs());
    s.setCluster(cluster);
    s.setNode(node.name());
    s.setAgentSeq(++nodeSeq[i]);
    s.setSource(SOURCE);
    s.setDevice(SiteTopology.hcaDevice(h));
    s.setPort(1);
    s.setRail(h);
    s.setLinkLayer(linkLayer);
    s.setState(state);
    s.setPhysState(phys);
    s.setRateGbps(rate);
    s.setXmitBytes(p.xmitBytes);
    s.setRcvBytes(p.rcvBytes);
    s.setXmitPkts(p.xmitPkts);
    s.setRcvPkts(p.rcvPkts);
    s.setXmitWait(p.xmitWait);
    s.setSymbolErrors(p.symbolErrors);
    s.setLinkDowned(p.linkDowned);
    s.setLinkErrorRecovery(p.linkErrorRecovery);
    s.setRcvErrors(p.rcvErrors);
    s.setXmitDiscards(p.xmitDiscards);
    if (roce) {
      s.setEcnMarkedPkts(p.ecn);
      s.setCnpSent(p.cnpSent);
      s.setCnpHandled(p.cnpHandled);
      s.setPfcPauseRx(p.pfcRx);
      s.setPfcPauseTx(p.pfcTx);
    }
    emitRaw(i, new SimRecord(Topics.IB, node.name(), s), out);
  }

  /** Emits a raw record now, or holds it back a few ticks (out of order) or a minute or more (late). */
  private void emitRaw(int nodeIdx, SimRecord r, List<SimRecord> out) {
    Rng d = nodeIdx >= 0 ? delayRng[nodeIdx] : facilityRng;
    double u = d.uniform();
    long hold = 0;
    if (u < c.lateFraction()) {
      hold = Math.max(1, (long) (d.uniform(60_000, 180_000) / c.intervalMs()));
    } else if (u < c.lateFraction() + c.reorderFraction()) {
      hold = 1 + d.nextInt(3);
    }
    if (hold == 0) {
      out.add(r);
    } else {
      delayed.computeIfAbsent(tick + hold, k -> new ArrayList<>()).add(r);
    }
  }

  private void emitFacility(long ts, List<SimRecord> out) {
    double dtFacilityH = c.facilityIntervalMs() / 3_600_000.0;
    for (SiteTopology.Pdu pdu : site.pdus()) {
      SiteTopology.Rack rack = site.rack(pdu.rack());
      double addedPerOutletW = rackAddedKw[rack.index()] * 1000 / Math.max(1, 2 * rack.nodes().size());
      int o = 0;
      for (Map.Entry<String, String> e : pdu.outletToNode().entrySet()) {
        int ni = site.node(e.getValue()).index();
        double w = nodeWallPowerW[ni] / 2 + addedPerOutletW + facilityRng.gaussian(5);
        double v = 230 + facilityRng.gaussian(0.8);
        double va = w / 0.99;
        String key = pdu.name() + "/" + e.getKey();
        double energy = outletEnergyWh.merge(key, w * dtFacilityH, Double::sum);
        PduReading r = new PduReading();
        r.setTs(ts);
        r.setCluster(cluster);
        r.setDevice(pdu.name());
        r.setAgentSeq(rowSeq.merge(pdu.row(), 1L, Long::sum));
        r.setSource(SOURCE);
        r.setRack(pdu.rack());
        r.setOutlet(e.getKey());
        r.setPhase("L" + (o++ % 3 + 1));
        r.setPowerW(Math.round(w * 10) / 10.0);
        r.setApparentPowerVa(Math.round(va * 10) / 10.0);
        r.setCurrentA(Math.round(va / v * 100) / 100.0);
        r.setVoltageV(Math.round(v * 10) / 10.0);
        r.setEnergyWh(Math.round(energy * 10) / 10.0);
        emitRaw(-1, new SimRecord(Topics.PDU, pdu.name(), r), out);
      }
    }
    for (int l = 0; l < site.cdus().size(); l++) {
      SiteTopology.Cdu cdu = site.cdus().get(l);
      double heat = 0;
      for (String rk : cdu.racks()) {
        heat += rackHeatKw[site.rack(rk).index()];
      }
      double f = loopFlowFraction[l];
      double flow = Thermal.FLOW_PER_RACK_LPM * cdu.racks().size() * f * (1 + facilityRng.gaussian(0.01));
      double supply = supplyTempC(l, ts) + facilityRng.gaussian(0.05);
      CoolantReading r = new CoolantReading();
      r.setTs(ts);
      r.setCluster(cluster);
      r.setDevice(cdu.name());
      r.setAgentSeq(rowSeq.merge(cdu.row(), 1L, Long::sum));
      r.setSource(SOURCE);
      r.setLoop(cdu.loop());
      r.setSupplyTempC(Math.round(supply * 100) / 100.0);
      r.setReturnTempC(Math.round((supply + Thermal.coolantRiseK(heat, Math.max(flow, 0.5))) * 100) / 100.0);
      r.setFlowLpm(Math.round(flow * 10) / 10.0);
      r.setPressureDiffKpa(Math.round(120 * f * f * 10) / 10.0);
      r.setLeakDetected(false);
      r.setPumpSpeedPct(Math.round(70 * f * 10) / 10.0);
      r.setHeatLoadKw(Math.round(heat * 10) / 10.0);
      emitRaw(-1, new SimRecord(Topics.COOLANT, cdu.name(), r), out);
    }
  }
}
