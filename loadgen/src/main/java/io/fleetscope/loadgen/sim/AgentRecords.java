package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.avro.PduReading;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.loadgen.catalog.GpuModel;
import io.fleetscope.loadgen.topology.SiteTopology;

/**
 * Builds the records the simulated agents send from the simulator's state, rounded as the real
 * collectors report them. No randomness here: noisy readings are drawn by the caller.
 */
final class AgentRecords {
  /** The {@code source} of every simulated record. */
  static final String SOURCE = "loadgen";

  private AgentRecords() {}

  /** One GPU's readings of a tick, before rounding. */
  record GpuReadings(double tempC, double memTempC, double powerW, double powerLimitW, double smClockMhz,
      double utilPct, double memUtilPct, long throttleReasons) {}

  static GpuSample gpu(long ts, String cluster, SiteTopology.Node node, long seq, int g, GpuState s, GpuReadings r) {
    GpuModel model = node.model();
    GpuSample gs = new GpuSample();
    gs.setTs(ts);
    gs.setCluster(cluster);
    gs.setNode(node.name());
    gs.setAgentSeq(seq);
    gs.setSource(SOURCE);
    gs.setGpu(g);
    gs.setUuid(node.gpuUuids().get(g));
    gs.setModel(model.name());
    gs.setPciBusId(SiteTopology.pciBusIdOf(g));
    gs.setTempC((double) Math.round(r.tempC()));
    gs.setMemTempC((double) Math.round(r.memTempC()));
    gs.setPowerW(Math.round(r.powerW() * 100) / 100.0);
    gs.setPowerLimitW(r.powerLimitW());
    gs.setSmClockMhz(r.smClockMhz());
    gs.setMemClockMhz(model.memClockMhz());
    gs.setUtilPct((double) Math.max(0, Math.min(100, Math.round(r.utilPct()))));
    gs.setMemUtilPct((double) Math.max(0, Math.round(r.memUtilPct())));
    gs.setMemUsedMib((double) Math.round(model.memTotalMib() * 0.92));
    gs.setMemTotalMib(model.memTotalMib());
    gs.setThrottleReasons(r.throttleReasons());
    gs.setEccSbeTotal(s.sbe);
    gs.setEccDbeTotal(s.dbe);
    gs.setRetiredPagesSbe(s.retiredSbe);
    gs.setRetiredPagesDbe(s.retiredDbe);
    gs.setRowRemapPending(s.remapPending);
    gs.setRowRemapFailure(s.remapFailure);
    gs.setRemappedRowsCorrectable(s.remappedCorrectable);
    gs.setRemappedRowsUncorrectable(s.remappedUncorrectable);
    // nvlink_tx_bytes/nvlink_rx_bytes stay null, as from every real GPU collector (nvidia-smi CSV and XML,
    // dcgm-exporter, dcgmi): NVLink traffic is reported per link on fleet.nvlink.v1 (nvlink(), below)
    gs.setPcieReplayTotal(s.pcieReplay);
    gs.setEnergyMj(s.energyCounterMj());
    return gs;
  }

  /** A storage sample's identity (who, when, which tier and device); the caller sets the readings. */
  static StorageSample storage(long ts, String cluster, String node, long seq, String source, String tier, String device) {
    StorageSample s = new StorageSample();
    s.setTs(ts);
    s.setCluster(cluster);
    s.setNode(node);
    s.setAgentSeq(seq);
    s.setSource(source);
    s.setTier(tier);
    s.setDevice(device);
    return s;
  }

  /** A byte count as a KiB counter reports it: the whole KiB, in bytes. */
  static long wholeKib(long bytes) {
    return Math.floorDiv(bytes, 1024L) * 1024L;
  }

  /**
   * One NVLink link of a GPU as the agent's nvlink collector reports it: the GPU's NVLink traffic
   * split evenly over its active links (an inactive link carries none), the link's replay errors.
   * {@code nvidia-smi nvlink -gt d} counts whole KiB (sent as bytes), so the byte counters are too.
   */
  static NvlinkSample nvlink(long ts, String cluster, SiteTopology.Node node, long seq, int g, int link, boolean inactive,
      long txBytes, long rxBytes, long replayErrors) {
    return NvlinkSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node.name()).setAgentSeq(seq).setSource(SOURCE)
        .setGpu(g).setUuid(node.gpuUuids().get(g)).setLink(link).setState(inactive ? "inactive" : "active")
        .setSpeedGbps(inactive ? null : 26.562).setTxBytes(wholeKib(txBytes)).setRxBytes(wholeKib(rxBytes))
        .setReplayErrors(replayErrors).setRecoveryErrors(0L).setCrcErrors(0L).build();
  }

  static GpuXid xid(long ts, String cluster, String node, long seq, int g, int xid, long pid) {
    GpuXid xr = new GpuXid();
    xr.setTs(ts);
    xr.setCluster(cluster);
    xr.setNode(node);
    xr.setAgentSeq(seq);
    xr.setSource(SOURCE);
    xr.setGpu(g);
    xr.setPciBusId(SiteTopology.pciBusIdOf(g));
    xr.setXid(xid);
    xr.setMessage(XidCatalog.message(xid));
    xr.setPid(pid);
    return xr;
  }

  /** A port's sample; the RoCE counters only on a RoCE fabric. */
  static IbPortSample port(long ts, String cluster, String node, long seq, int rail, String linkLayer, boolean roce,
      PortStep step) {
    PortState p = step.counters;
    IbPortSample s = new IbPortSample();
    s.setTs(ts);
    s.setCluster(cluster);
    s.setNode(node);
    s.setAgentSeq(seq);
    s.setSource(SOURCE);
    s.setDevice(SiteTopology.hcaDevice(rail));
    s.setPort(1);
    s.setRail(rail);
    s.setLinkLayer(linkLayer);
    s.setState(step.state);
    s.setPhysState(step.physState);
    s.setRateGbps(step.rateGbps);
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
    return s;
  }

  static CheckpointEvent checkpoint(long ts, String cluster, String node, long seq, JobState job, int ranks,
      String status, Long finishedTs) {
    CheckpointEvent e = new CheckpointEvent();
    e.setTs(ts);
    e.setCluster(cluster);
    e.setNode(node);
    e.setAgentSeq(seq);
    e.setSource(SOURCE);
    e.setJob(job.job.name());
    e.setStep(job.step);
    e.setBytes(job.bytes);
    e.setStartedTs(job.ckptStartTs);
    e.setFinishedTs(finishedTs);
    e.setTier(job.tier);
    e.setStatus(status);
    e.setRanks(ranks);
    return e;
  }

  /** One PDU outlet's reading from its real power, voltage and energy so far. */
  static PduReading outlet(long ts, String cluster, SiteTopology.Pdu pdu, long seq, String outlet, String phase,
      double powerW, double voltageV, double energyWh) {
    double va = powerW / 0.99;
    PduReading r = new PduReading();
    r.setTs(ts);
    r.setCluster(cluster);
    r.setDevice(pdu.name());
    r.setAgentSeq(seq);
    r.setSource(SOURCE);
    r.setRack(pdu.rack());
    r.setOutlet(outlet);
    r.setPhase(phase);
    r.setPowerW(Math.round(powerW * 10) / 10.0);
    r.setApparentPowerVa(Math.round(va * 10) / 10.0);
    r.setCurrentA(Math.round(va / voltageV * 100) / 100.0);
    r.setVoltageV(Math.round(voltageV * 10) / 10.0);
    r.setEnergyWh(Math.round(energyWh * 10) / 10.0);
    return r;
  }

  /**
   * One CDU's reading of its loop.
   *
   * @param flowFraction the loop's flow as a fraction of nominal (pump speed, pressure)
   * @param flowLpm measured flow
   * @param returnTempC supply plus the rise the heat load gives at that flow
   */
  static CoolantReading coolant(long ts, String cluster, SiteTopology.Cdu cdu, long seq, double supplyTempC,
      double returnTempC, double flowLpm, double flowFraction, double heatKw) {
    CoolantReading r = new CoolantReading();
    r.setTs(ts);
    r.setCluster(cluster);
    r.setDevice(cdu.name());
    r.setAgentSeq(seq);
    r.setSource(SOURCE);
    r.setLoop(cdu.loop());
    r.setSupplyTempC(Math.round(supplyTempC * 100) / 100.0);
    r.setReturnTempC(Math.round(returnTempC * 100) / 100.0);
    r.setFlowLpm(Math.round(flowLpm * 10) / 10.0);
    r.setPressureDiffKpa(Math.round(120 * flowFraction * flowFraction * 10) / 10.0);
    r.setLeakDetected(false);
    r.setPumpSpeedPct(Math.round(70 * flowFraction * 10) / 10.0);
    r.setHeatLoadKw(Math.round(heatKw * 10) / 10.0);
    return r;
  }
}
