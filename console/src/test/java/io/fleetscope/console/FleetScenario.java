package io.fleetscope.console;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.avro.ThermalRisk;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * A fleet in a fresh database of the test TimescaleDB, migrated by the sink's migrations and
 * written by the sink's {@link BatchWriter} (as the sink writes what it reads from Kafka): the
 * inventory of {@code rows x racksPerRow x nodesPerRack} nodes of 8 GPUs, a latest sample and
 * thermal-risk score of every GPU, and around them the things the console shows:
 * <ul>
 *   <li>{@link #HOT_NODE} GPU {@link #HOT_GPU}: 86 °C against a slowdown of 90 °C (headroom 4, warning),
 *       thermally throttled, risk critical, and half an hour of 10 s samples and three days of
 *       minute samples behind it, rolled up;</li>
 *   <li>{@link #ECC_NODE} GPU 0: an uncorrected ECC error;</li>
 *   <li>an incident {@link #INCIDENT} (CoolantFlowLow on the first rack) with two members that
 *       joined a minute apart and a blast radius of its 8 GPUs on {@link #HOT_NODE};</li>
 *   <li>an earlier incident {@link #EARLIER_INCIDENT} (IbLinkDown), firing three hours ago for an hour, resolved;</li>
 *   <li>four rails, rail 2 with a port down for the last 10 minutes;</li>
 *   <li>a checkpointing job {@link #JOB} with 12 checkpoints, 3 of them over the SLO.</li>
 * </ul>
 */
final class FleetScenario {
  static final String CLUSTER = "console-it";
  static final String INCIDENT = "inc-coolant-r00-k00";
  static final String EARLIER_INCIDENT = "inc-iblink-r01-k00-n00";
  static final String JOB = "llm-70b";
  /** {@link #JOB}'s size; the incident puts 64 GPUs x 30 min = 32 GPU-hours at risk. */
  static final int JOB_GPUS = 64;
  static final String JOB_LINE = "job llm-70b, 64 GPUs, last checkpoint 30 min ago: about 32 GPU-hours at risk";
  static final int GPUS_PER_NODE = 8;
  static final String HOT_NODE = node(0, 0, 1);
  static final int HOT_GPU = 2;
  static final String ECC_NODE = node(0, 0, 2);
  /** NVLink byte counters as nvidia-smi nvlink -gt d gives them: 2 links, each 1 GB/s tx and 0.5 GB/s rx. */
  static final String NVLINK_SMI_NODE = node(0, 0, 3);
  /** NVLink as dcgm-exporter gives it: one all-links row (link -1) per sample, 2.5 GB/s tx and 1.25 GB/s rx. */
  static final String NVLINK_DCGM_NODE = node(0, 0, 4);
  /** GPU 0 of this node is in MIG mode: two MIG devices (the GI 2 of the H200 MIG capture, two compute instances). */
  static final String MIG_NODE = node(0, 0, 3);

  final String jdbcUrl;
  final Instant now = Instant.now();
  final int rows;
  final int racksPerRow;
  final int nodesPerRack;
  private final BatchWriter writer = new BatchWriter();
  private long offset;

  FleetScenario(String database, int rows, int racksPerRow, int nodesPerRack) throws SQLException {
    this.rows = rows;
    this.racksPerRow = racksPerRow;
    this.nodesPerRack = nodesPerRack;
    LocalPostgres pg = TestServices.postgres();
    this.jdbcUrl = pg.createDatabase(database);
    try (Connection c = superuser()) {
      Migrator.migrate(c);
    }
  }

  static String node(int row, int rack, int n) {
    return String.format("r%02d-k%02d-n%02d", row, rack, n);
  }

  static String rack(int row, int rack) {
    return String.format("r%02d-k%02d", row, rack);
  }

  int nodes() {
    return rows * racksPerRow * nodesPerRack;
  }

  Connection superuser() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, LocalPostgres.SUPERUSER, "");
  }

  /** The console as the local stack runs it: the reader login, in the read-only group role. */
  ConsoleConfig consoleConfig() {
    return new ConsoleConfig(0, jdbcUrl, LocalPostgres.READER_LOGIN, "", "", Duration.ofMinutes(30), "127.0.0.1");
  }

  FleetScenario write() throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    long t = now.minusSeconds(20).toEpochMilli();
    for (int row = 0; row < rows; row++) {
      for (int k = 0; k < racksPerRow; k++) {
        for (int n = 0; n < nodesPerRack; n++) {
          String node = node(row, k, n);
          batch.add(rec(Topics.INVENTORY, node, inventory(node, rack(row, k), String.format("row-%02d", row), t)));
          for (int g = 0; g < GPUS_PER_NODE; g++) {
            boolean hot = node.equals(HOT_NODE) && g == HOT_GPU;
            double temp = hot ? 86 : 55 + ((n * 8 + g) % 20);
            batch.add(rec(Topics.GPU, node, gpu(node, g, t, temp, hot ? 0x40L : 0L,
                node.equals(ECC_NODE) && g == 0 ? 1L : 0L, 1)));
            batch.add(rec(Topics.THERMAL_RISK, node, risk(node, rack(row, k), g, t, hot ? 0.95 : 0.1, hot ? "critical" : "ok", 90 - temp)));
          }
          if (batch.size() > 5000) {
            flush(batch);
          }
        }
      }
    }
    flush(batch);
    mig(t);
    history();
    rails();
    nvlink();
    incident();
    checkpoints();
    rollUp();
    return this;
  }

  /** Half an hour of 10 s samples and three days of minute samples of the hot GPU, rolled up as the sink does. */
  private void history() throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    long seq = 10;
    for (long s = 3 * 86400; s > 1800; s -= 60) {
      batch.add(rec(Topics.GPU, HOT_NODE, gpu(HOT_NODE, HOT_GPU, now.minusSeconds(s).toEpochMilli(), 60 + (s % 600) / 60.0, 0L, 0L, seq++)));
    }
    for (long s = 1800; s > 20; s -= 10) {
      batch.add(rec(Topics.GPU, HOT_NODE, gpu(HOT_NODE, HOT_GPU, now.minusSeconds(s).toEpochMilli(), 70 + (1800 - s) / 120.0,
          s < 300 ? 0x40L : 0L, 0L, seq++)));
    }
    flush(batch);
  }

  private void mig(long t) throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    for (long back : new long[] {60_000, 0}) {
      for (int ci = 0; ci < 2; ci++) {
        batch.add(rec(Topics.GPU_MIG, MIG_NODE, GpuMigSample.newBuilder().setTs(t - back).setCluster(CLUSTER).setNode(MIG_NODE)
            .setAgentSeq(100 + ci).setSource("scenario").setGpu(0).setGpuUuid("GPU-" + MIG_NODE + "-0").setGpuInstanceId(2)
            .setComputeInstanceId(ci).setMigDevice(ci).setProfile(ci == 0 ? "1c.3g.71gb" : "2c.3g.71gb")
            .setUuid("MIG-0000000" + ci + "-0000-0000-0000-00000000000" + ci).setSmCount(16 * (ci + 1))
            .setMemUsedMib(back == 0 ? 16925.0 : 100.0).setMemTotalMib(71424.0).setEccSramUncorrectable(0L).build()));
      }
    }
    flush(batch);
  }

  /** What the sink's rollup maintainer does after a batch: recompute the rollups of the range written. */
  private void rollUp() throws SQLException {
    try (Connection c = superuser(); PreparedStatement ps = c.prepareStatement(
        "SELECT refresh_gpu_rollup_1m(?, ?), refresh_gpu_rollup_1h(?, ?), refresh_rail_rollup_1m(?, ?), refresh_rail_rollup_1h(?, ?)")) {
      for (int i = 1; i <= 8; i += 2) {
        ps.setTimestamp(i, Timestamp.from(now.minus(Duration.ofDays(4))));
        ps.setTimestamp(i + 1, Timestamp.from(now.plusSeconds(3600)));
      }
      ps.execute();
    }
  }

  private void rails() throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    for (long s = 1800; s > 0; s -= 10) {
      long ts = now.minusSeconds(s).toEpochMilli();
      for (int rail = 0; rail < 4; rail++) {
        boolean down = rail == 2 && s <= 600;
        batch.add(rec(Topics.RAIL_BW, "rail-" + rail, RailBandwidth.newBuilder().setTs(ts).setWindowStart(ts - 10_000).setWindowEnd(ts)
            .setCluster(CLUSTER).setRail(rail).setTxGbps(down ? 2100 : 2400 + rail).setRxGbps(down ? 2050 : 2390 + rail)
            .setLineRateGbps(3200).setUtilisation(down ? 0.66 : 0.75).setPortsUp(down ? 7 : 8).setPortsTotal(8)
            .setImbalance(down ? 0.2 : 0.01).setDegradedPorts(down ? List.of(node(0, 0, 1) + "/mlx5_2:1") : List.of()).build()));
      }
    }
    flush(batch);
  }

  /**
   * Five minutes of NVLink rows on two nodes, every 10 s, plus an older row outside the console's 10
   * minutes whose counters would spoil the rate if it were used. Link 1's counters reset once (no rate
   * for that step).
   */
  private void nvlink() throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    batch.add(rec(Topics.NVLINK, NVLINK_SMI_NODE, nvlinkRow(NVLINK_SMI_NODE, 0, now.minusSeconds(1200).toEpochMilli())
        .setTxBytes(0L).setRxBytes(0L).build()));
    for (long s = 300, i = 0; s > 0; s -= 10, i++) {
      long ts = now.minusSeconds(s).toEpochMilli();
      for (int link = 0; link < 2; link++) {
        long k = link == 1 && i >= 15 ? i - 15 : i + 1000; // link 1: a reset at the 16th sample
        batch.add(rec(Topics.NVLINK, NVLINK_SMI_NODE, nvlinkRow(NVLINK_SMI_NODE, link, ts)
            .setState("active").setSpeedGbps(26.562).setTxBytes(k * 10_000_000_000L).setRxBytes(k * 5_000_000_000L).build()));
      }
      batch.add(rec(Topics.NVLINK, NVLINK_DCGM_NODE, nvlinkRow(NVLINK_DCGM_NODE, -1, ts).setSource("dcgm-exporter")
          .setTxBytesPerS(2.5e9).setRxBytesPerS(1.25e9).setReplayErrors(3L).build()));
    }
    flush(batch);
  }

  private static NvlinkSample.Builder nvlinkRow(String node, int link, long ts) {
    return NvlinkSample.newBuilder().setTs(ts).setCluster(CLUSTER).setNode(node).setAgentSeq(ts / 1000).setSource("nvidia-smi-nvlink")
        .setGpu(0).setUuid("GPU-" + node).setLink(link);
  }

  private void incident() throws SQLException {
    long start = now.minusSeconds(600).toEpochMilli();
    String m1 = "anom-flow-loop-a";
    String m2 = "anom-thermal-" + HOT_NODE + "-" + HOT_GPU;
    List<SinkRecord> batch = new ArrayList<>();
    batch.add(rec(Topics.ANOMALIES, m1, anomaly(m1, "CoolantFlowLow", Map.of("cdu_loop", "loop-a"), start, 41.0)));
    batch.add(rec(Topics.ANOMALIES, m2, anomaly(m2, "GpuThermalThrottleRisk", Map.of("node", HOT_NODE, "gpu", Integer.toString(HOT_GPU)),
        start + 60_000, 0.95)));
    List<String> gpus = new ArrayList<>();
    for (int g = 0; g < GPUS_PER_NODE; g++) {
      gpus.add(HOT_NODE + "/" + g);
    }
    BlastRadius br = BlastRadius.newBuilder().setGpus(8).setNodes(1).setNodeList(List.of(HOT_NODE)).setGpuList(gpus).build();
    Map<String, String> labels = Map.of("alertname", "CoolantFlowLow", "severity", "critical", "cluster", CLUSTER,
        "rack", rack(0, 0));
    Map<String, String> ann = Map.of("summary", "Coolant flow low on loop-a: 8 GPUs on 1 node at risk",
        "runbook_url", io.fleetscope.schemas.contract.Runbooks.BASE + "#coolantflowlow");
    batch.add(rec(Topics.ALERTS, INCIDENT, Alert.newBuilder().setTs(start + 5_000).setFingerprint(INCIDENT).setStatus("firing")
        .setLabels(labels).setAnnotations(ann).setStartsAt(start).setMembers(List.of(m1)).setBlastRadius(
            BlastRadius.newBuilder(br).setGpus(0).setNodes(0).setNodeList(List.of()).setGpuList(List.of()).build())
        .setRootCause("coolant_flow").setVersion(1L).build()));
    // version 2 reaches the hot node, all 8 GPUs of it held by JOB (64 GPUs), last checkpointed 30 min before
    JobImpact job = JobImpact.newBuilder().setJob(JOB).setGpusAffected(8).setGpuList(gpus).setJobGpus(JOB_GPUS)
        .setLastCheckpointTs(start + 65_000 - 1_800_000).setCheckpointAgeS(1800L).setGpuHoursAtRisk(JOB_GPUS * 0.5).build();
    Map<String, String> withJobs = new LinkedHashMap<>(ann);
    withJobs.put("jobs", JOB_LINE);
    batch.add(rec(Topics.ALERTS, INCIDENT, Alert.newBuilder().setTs(start + 65_000).setFingerprint(INCIDENT).setStatus("firing")
        .setLabels(labels).setAnnotations(withJobs).setStartsAt(start).setMembers(List.of(m1, m2)).setBlastRadius(br)
        .setRootCause("coolant_flow").setVersion(2L).setJobs(List.of(job)).build()));
    // an earlier incident, over: a link down for an hour, three hours ago
    long t3 = now.minus(Duration.ofHours(3)).toEpochMilli();
    long end = t3 + 3_600_000;
    String m3 = "anom-ib-" + node(1, 0, 0);
    Map<String, String> ibWhere = Map.of("node", node(1, 0, 0), "rail", "3");
    batch.add(rec(Topics.ANOMALIES, m3, anomaly(m3, "IbLinkDown", ibWhere, t3, 1.0)));
    batch.add(rec(Topics.ANOMALIES, m3, Anomaly.newBuilder(anomaly(m3, "IbLinkDown", ibWhere, t3, 0.0)).setTs(end).setStatus("resolved")
        .setEndsAt(end).build()));
    Map<String, String> ibLabels = Map.of("alertname", "IbLinkDown", "severity", "warning", "cluster", CLUSTER, "node", node(1, 0, 0));
    BlastRadius ibRadius = BlastRadius.newBuilder().setGpus(8).setNodes(1).setNodeList(List.of(node(1, 0, 0))).setGpuList(List.of()).build();
    batch.add(rec(Topics.ALERTS, EARLIER_INCIDENT, Alert.newBuilder().setTs(t3 + 5_000).setFingerprint(EARLIER_INCIDENT)
        .setStatus("firing").setLabels(ibLabels).setAnnotations(Map.of("summary", "IB link down")).setStartsAt(t3)
        .setMembers(List.of(m3)).setBlastRadius(ibRadius).setRootCause(null).setVersion(1L).build()));
    batch.add(rec(Topics.ALERTS, EARLIER_INCIDENT, Alert.newBuilder().setTs(end + 5_000).setFingerprint(EARLIER_INCIDENT)
        .setStatus("resolved").setLabels(ibLabels).setAnnotations(Map.of("summary", "IB link down")).setStartsAt(t3).setEndsAt(end)
        .setMembers(List.of(m3)).setBlastRadius(ibRadius).setRootCause(null).setVersion(2L).build()));
    flush(batch);
  }

  private void checkpoints() throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      boolean slow = i % 4 == 3;
      double duration = slow ? 140 : 80;
      long bytes = 2_000_000_000_000L;
      batch.add(rec(Topics.CKPT_SLO, JOB, CheckpointSlo.newBuilder().setTs(now.minusSeconds(3600 - i * 300L).toEpochMilli())
          .setCluster(CLUSTER).setJob(JOB).setStep(1000L * (i + 1)).setTier("nvme").setBytes(bytes).setDurationS(duration)
          .setThroughputGbps(bytes / 1e9 / duration).setSloSeconds(120).setCompliant(!slow).setBurnRate5m(slow ? 3.0 : 0.0)
          .setBurnRate30m(0.8).setBurnRate1h(0.5).setBurnRate6h(0.25).setRecommendedIntervalS(1800.0).build()));
    }
    flush(batch);
  }

  private InventoryRecord inventory(String node, String rack, String row, long ts) {
    List<GpuInfo> gpus = new ArrayList<>();
    for (int g = 0; g < GPUS_PER_NODE; g++) {
      gpus.add(GpuInfo.newBuilder().setIndex(g).setUuid("GPU-" + node + "-" + g).setModel("NVIDIA H100 80GB HBM3").setTdpW(700.0)
          .setSlowdownTempC(90.0).setShutdownTempC(95.0).setMemMaxTempC(95.0).setHbmGb(80.0).setPciBusId(null).build());
    }
    return InventoryRecord.newBuilder().setTs(ts).setCluster(CLUSTER).setKind("node").setId(node).setAgentSeq(0L).setRack(rack)
        .setRow(row).setGpus(gpus).setHcas(new ArrayList<>()).setPduOutlets(new ArrayList<>()).setCdu("cdu-1").setCduLoop("loop-a")
        .setRackCooling("liquid").setRackCoolingCapacityKw(120.0).setRacks(new ArrayList<>()).setAttributes(new LinkedHashMap<>())
        .build();
  }

  private static GpuSample gpu(String node, int g, long ts, double temp, long throttle, long dbe, long seq) {
    return GpuSample.newBuilder().setTs(ts).setCluster(CLUSTER).setNode(node).setAgentSeq(seq).setSource("scenario").setGpu(g)
        .setUuid("GPU-" + node + "-" + g).setModel("NVIDIA H100 80GB HBM3").setPciBusId(null).setTempC(temp).setMemTempC(temp + 8)
        .setPowerW(600.0).setPowerLimitW(700.0).setSmClockMhz(throttle != 0 ? 1500.0 : 1980.0).setMemClockMhz(2619.0)
        .setUtilPct(97.0).setMemUtilPct(40.0).setMemUsedMib(61000.0).setMemTotalMib(81559.0).setThrottleReasons(throttle)
        .setEccSbeTotal(3L).setEccDbeTotal(dbe).setRetiredPagesSbe(0L).setRetiredPagesDbe(0L).setRowRemapPending(false)
        .setRowRemapFailure(false).setRemappedRowsCorrectable(0L).setRemappedRowsUncorrectable(0L).setNvlinkTxBytes(0L)
        .setNvlinkRxBytes(0L).setPcieReplayTotal(0L).build();
  }

  private static ThermalRisk risk(String node, String rack, int g, long ts, double score, String level, double headroom) {
    return ThermalRisk.newBuilder().setTs(ts).setCluster(CLUSTER).setNode(node).setGpu(g).setRack(rack).setModel("NVIDIA H100 80GB HBM3")
        .setScore(score).setLevel(level).setSecondsToThrottle(level.equals("critical") ? 40.0 : null).setDriver("gpu_temp")
        .setTempC(90 - headroom).setHeadroomC(headroom).setSlopeCPerMin(0.5).setMemTempC(null).setPowerRatio(0.86).build();
  }

  private static Anomaly anomaly(String fp, String name, Map<String, String> where, long ts, double value) {
    Map<String, String> labels = new LinkedHashMap<>(where);
    labels.put("alertname", name);
    labels.put("severity", "warning");
    labels.put("cluster", CLUSTER);
    return Anomaly.newBuilder().setTs(ts).setFingerprint(fp).setStatus("firing").setLabels(labels)
        .setAnnotations(Map.of("summary", name + " " + where)).setStartsAt(ts).setEndsAt(null).setValue(value)
        .setSource("scenario").build();
  }

  private SinkRecord rec(String topic, String key, SpecificRecord value) {
    return new SinkRecord(topic, 0, offset++, key, null, value);
  }

  private void flush(List<SinkRecord> batch) throws SQLException {
    if (batch.isEmpty()) {
      return;
    }
    try (Connection c = superuser()) {
      c.setAutoCommit(false);
      BatchWriter.Result r = writer.write(c, batch);
      c.commit();
      if (!r.rejects().isEmpty()) {
        throw new IllegalStateException("the sink refused " + r.rejects().size() + " rows, first: " + r.rejects().get(0));
      }
    }
    writer.reset();
    batch.clear();
  }
}
