package io.fleetscope.sink;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.PduReading;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.avro.ThermalRisk;
import io.fleetscope.schemas.Topics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/** Records of every topic with every field set, for round-trip tests (values are deterministic). */
public final class SampleRecords {
  private SampleRecords() {}

  public static GpuSample gpu(String cluster, String node, int gpu, long ts, long seq) {
    return GpuSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(seq).setSource("test")
        .setGpu(gpu).setUuid("GPU-" + node + "-" + gpu).setModel("NVIDIA H100 80GB HBM3").setPciBusId("00000000:1" + gpu + ":00.0")
        .setTempC(40.0 + gpu + (seq % 7)).setMemTempC(50.5).setPowerW(350.25).setPowerLimitW(700.0).setSmClockMhz(1980.0)
        .setMemClockMhz(2619.0).setUtilPct(97.0).setMemUtilPct(40.0).setMemUsedMib(61000.0).setMemTotalMib(81559.0)
        .setThrottleReasons(0L).setEccSbeTotal(seq).setEccDbeTotal(0L).setRetiredPagesSbe(0L).setRetiredPagesDbe(0L)
        .setRowRemapPending(false).setRowRemapFailure(false).setRemappedRowsCorrectable(0L).setRemappedRowsUncorrectable(0L)
        .setNvlinkTxBytes(1_000_000L * seq).setNvlinkRxBytes(2_000_000L * seq).setPcieReplayTotal(3L).build();
  }

  public static IbPortSample ib(String cluster, String node, int port, long ts, long seq) {
    return IbPortSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(seq).setSource("sysfs")
        .setDevice("mlx5_" + port).setPort(1).setRail(port).setLinkLayer("InfiniBand").setState("ACTIVE")
        .setPhysState("LinkUp").setRateGbps(400.0).setXmitBytes(4L * seq * 1_000_000).setRcvBytes(4L * seq * 900_000)
        .setXmitPkts(seq * 1000).setRcvPkts(seq * 900).setXmitWait(5L).setSymbolErrors(0L).setLinkDowned(0L)
        .setLinkErrorRecovery(0L).setRcvErrors(0L).setXmitDiscards(0L).setEcnMarkedPkts(1L).setCnpSent(2L)
        .setCnpHandled(3L).setPfcPauseRx(4L).setPfcPauseTx(5L).setCounterWidthBits(64).build();
  }

  /** One record of every topic, keyed as the producers key them. */
  public static Map<String, List<Keyed>> everyTopic(String cluster, long ts) {
    Map<String, List<Keyed>> m = new LinkedHashMap<>();
    String node = cluster + "-n1";
    add(m, Topics.GPU, node, gpu(cluster, node, 0, ts, 1));
    add(m, Topics.GPU_XID, node, GpuXid.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(2)
        .setSource("dmesg").setGpu(3).setPciBusId("00000000:13:00.0").setXid(79)
        .setMessage("GPU has fallen off the bus, \"quoted\", with, commas").setPid(4242L).build());
    add(m, Topics.IB, node, ib(cluster, node, 0, ts, 3));
    add(m, Topics.PDU, cluster + "-pdu1", PduReading.newBuilder().setTs(ts).setCluster(cluster).setDevice(cluster + "-pdu1")
        .setAgentSeq(4).setSource("snmp").setRack("R1").setOutlet("A7").setInlet(null).setPhase("L1").setPowerW(1234.5)
        .setApparentPowerVa(1300.0).setCurrentA(5.6).setVoltageV(230.1).setEnergyWh(98765.4).build());
    add(m, Topics.COOLANT, cluster + "-cdu1", CoolantReading.newBuilder().setTs(ts).setCluster(cluster)
        .setDevice(cluster + "-cdu1").setAgentSeq(5).setSource("redfish").setLoop("secondary").setSupplyTempC(25.0)
        .setReturnTempC(35.5).setFlowLpm(400.0).setPressureDiffKpa(80.0).setLeakDetected(false).setPumpSpeedPct(60.0)
        .setHeatLoadKw(120.0).build());
    add(m, Topics.CKPT, node, CheckpointEvent.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(6)
        .setSource("http").setJob("job-42").setStep(1000).setBytes(1_000_000_000_000L).setStartedTs(ts - 60_000)
        .setFinishedTs(ts).setTier("lustre").setStatus("completed").setRanks(512).build());
    add(m, Topics.INVENTORY, node, InventoryRecord.newBuilder().setTs(ts).setCluster(cluster).setKind("node").setId(node)
        .setAgentSeq(7L).setRack("R1").setRow("row-a")
        .setGpus(List.of(GpuInfo.newBuilder().setIndex(0).setUuid("GPU-x").setModel("NVIDIA H100 80GB HBM3").setTdpW(700.0)
            .setSlowdownTempC(87.0).setShutdownTempC(92.0).setMemMaxTempC(95.0).setHbmGb(80.0).setPciBusId("00000000:10:00.0").build()))
        .setHcas(List.of(HcaInfo.newBuilder().setDevice("mlx5_0").setPort(1).setRail(0).setLinkLayer("InfiniBand")
            .setRateGbps(400.0).setNodeGuid("0x1234").build()))
        .setPduOutlets(List.of(cluster + "-pdu1/A7")).setCdu(cluster + "-cdu1").setCduLoop("secondary")
        .setRackCooling("direct-liquid").setRackCoolingCapacityKw(130.0).setRacks(List.of())
        .setAttributes(Map.of("bios", "1.2.3")).build());
    add(m, Topics.JOBS, node, JobAllocations.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(8)
        .setSource("slurm").setAllocations(List.of(GpuAllocation.newBuilder().setJob("job-42").setGpus(List.of(0, 1, 2, 3))
            .setUser("alice").setPartition("train").build())).build());
    add(m, Topics.FABRIC_CONFIG, node + "/mlx5_0/1", PortConfig.newBuilder().setTs(ts).setCluster(cluster).setNode(node)
        .setAgentSeq(9).setSource("sysfs,mlnx_qos,debugfs").setDevice("mlx5_0").setPort(1).setNetdev("eth0").setRail(0)
        .setLinkLayer("Ethernet").setMtuBytes(9000).setTrust("dscp").setPfcPrios(List.of(3)).setEcnNpPrios(List.of(3))
        .setEcnRpPrios(List.of(3)).setCnpDscp(48).setDcqcn(Map.of("rp_time_reset", 300L)).build());
    add(m, Topics.RAIL_BW, cluster + "/0", RailBandwidth.newBuilder().setTs(ts).setWindowStart(ts - 10_000).setWindowEnd(ts)
        .setCluster(cluster).setRail(0).setTxGbps(300.0).setRxGbps(290.0).setLineRateGbps(400.0).setUtilisation(0.75)
        .setPortsUp(8).setPortsTotal(8).setImbalance(-0.02).setDegradedPorts(List.of("n3/mlx5_0/1")).build());
    add(m, Topics.THERMAL_RISK, node, ThermalRisk.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setGpu(0)
        .setRack("R1").setModel("H100").setScore(0.4).setLevel("watch").setSecondsToThrottle(600.0).setDriver("gpu_temp")
        .setTempC(80.0).setHeadroomC(7.0).setSlopeCPerMin(0.7).setMemTempC(85.0).setPowerRatio(0.9).build());
    add(m, Topics.ECC_TREND, node, EccTrend.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setGpu(0)
        .setUuid("GPU-x").setSbeRatePerH(3.5).setSbeRateTrend(0.5).setSbeTotal(100L).setDbeTotal(0L).setRetiredPages(1L)
        .setRowRemapPending(false).setRowRemapFailure(false).setXidCount(2L).build());
    add(m, Topics.CKPT_SLO, "job-42", CheckpointSlo.newBuilder().setTs(ts).setCluster(cluster).setJob("job-42").setStep(1000)
        .setTier("lustre").setBytes(1_000_000_000_000L).setDurationS(60.0).setThroughputGbps(16.7).setSloSeconds(60.0)
        .setCompliant(true).setBurnRate5m(0.5).setBurnRate1h(0.2).setBurnRate30m(0.3).setBurnRate6h(0.1)
        .setRecommendedIntervalS(1800.0).build());
    add(m, Topics.ANOMALIES, cluster + "-fp-a", Anomaly.newBuilder().setTs(ts).setFingerprint(cluster + "-fp-a")
        .setStatus("firing").setLabels(Map.of("alertname", "GpuXid", "severity", "critical", "node", node, "gpu", "3"))
        .setAnnotations(Map.of("summary", "XID 79 on " + node)).setStartsAt(ts).setEndsAt(null).setValue(79.0)
        .setSource("ecc-trends").build());
    add(m, Topics.ALERTS, cluster + "-inc-1", Alert.newBuilder().setTs(ts).setFingerprint(cluster + "-inc-1").setStatus("firing")
        .setLabels(Map.of("alertname", "GpuXid", "severity", "critical")).setAnnotations(Map.of("summary", "GPU fell off the bus"))
        .setStartsAt(ts).setEndsAt(null).setMembers(List.of(cluster + "-fp-a"))
        .setBlastRadius(BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of(node)).setGpuList(List.of(node + "/3")).build())
        .setRootCause("gpu").setVersion(1L).build());
    add(m, Topics.DLQ, "k", DeadLetter.newBuilder().setTs(ts).setStage("flink-jobs").setReason("test reason, with comma")
        .setSourceTopic(Topics.GPU).setPartition(0).setOffset(12L).setKey(cluster + "-dlq")
        .setPayload(ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 0xff})).setPayloadJson("{\"x\":1}")
        .setErrorClass("java.lang.IllegalArgumentException").build());
    add(m, Topics.NVLINK, node, io.fleetscope.avro.NvlinkSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node)
        .setAgentSeq(10).setSource("nvidia-smi").setGpu(3).setUuid("GPU-0001").setLink(17).setState("active")
        .setSpeedGbps(26.562).setTxBytes(1_391_000_000_000L).setRxBytes(1_389_000_000_000L).setCrcFlitErrors(0L)
        .setCrcDataErrors(0L).setCrcErrors(null).setReplayErrors(2L).setRecoveryErrors(0L).build());
    add(m, Topics.STORAGE, node, StorageSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(9)
        .setSource("nfs-mountstats").setTier("nfs").setDevice("/mnt/ckpt").setReadBytes(1210214218L).setWriteBytes(5_000_000L)
        .setReadOps(1298L).setWriteOps(40L).setReadTimeMs(79407L).setWriteTimeMs(800L).setWriteRttMs(760L).build());
    add(m, Topics.GPU_MIG, node, GpuMigSample.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(10)
        .setSource("nvidia-smi-xml").setGpu(0).setGpuUuid("GPU-00000000-0000-0000-0000-000000000000").setGpuInstanceId(2)
        .setComputeInstanceId(1).setMigDevice(1).setProfile("2c.3g.71gb").setUuid("MIG-00000001-0000-0000-0000-000000000001")
        .setSmCount(32).setMemUsedMib(16925.0).setMemTotalMib(71424.0).setEccSramUncorrectable(0L).build());
    return m;
  }

  /** A record with its Kafka key. */
  public record Keyed(String key, SpecificRecord value) {}

  private static void add(Map<String, List<Keyed>> m, String topic, String key, SpecificRecord v) {
    m.computeIfAbsent(topic, t -> new ArrayList<>()).add(new Keyed(key, v));
  }
}
