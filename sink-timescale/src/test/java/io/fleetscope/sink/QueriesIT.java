package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.RollupMaintainer;
import io.fleetscope.sink.query.QueryMain;
import io.fleetscope.stack.services.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The named SRE queries, run through QueryMain on the real TimescaleDB, on scenarios with known answers. */
class QueriesIT {
  static SinkTestEnv env;
  static final Instant F = Instant.parse("2026-05-31T12:00:00Z");
  static final String CL = "qa";

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_queries");
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      seed(c);
      new RollupMaintainer().refresh(c);
    }
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  static long ms(Instant i) {
    return i.toEpochMilli();
  }

  static void seed(Connection c) throws Exception {
    InventoryRecord n1 = InventoryRecord.newBuilder().setTs(ms(F.minus(Duration.ofHours(2)))).setCluster(CL).setKind("node")
        .setId("qa-n1").setRack("R1").setAttributes(Map.of("bios", "1.0")).build();
    InventoryRecord n1b = InventoryRecord.newBuilder(n1).setTs(ms(F.minus(Duration.ofHours(1)))).setAttributes(Map.of("bios", "1.1")).build();
    InventoryRecord n1same = InventoryRecord.newBuilder(n1b).setTs(ms(F.minus(Duration.ofMinutes(30)))).build();
    InventoryRecord n2 = InventoryRecord.newBuilder().setTs(ms(F.minus(Duration.ofHours(2)))).setCluster(CL).setKind("node")
        .setId("qa-n2").setRack("R2").build();
    DirectWriter.write(c, Topics.INVENTORY, List.of(n1, n1b, n1same, n2));
    DirectWriter.write(c, Topics.JOBS, List.of(
        JobAllocations.newBuilder().setTs(ms(F.minus(Duration.ofHours(2)))).setCluster(CL).setNode("qa-n1").setAgentSeq(1)
            .setAllocations(List.of(GpuAllocation.newBuilder().setJob("job-a").setGpus(List.of(0, 1)).build())).build(),
        JobAllocations.newBuilder().setTs(ms(F.minus(Duration.ofHours(1)))).setCluster(CL).setNode("qa-n1").setAgentSeq(2)
            .setAllocations(List.of(GpuAllocation.newBuilder().setJob("job-b").setGpus(List.of(0, 1, 2, 3)).build())).build()));

    List<GpuSample> gpu = new ArrayList<>();
    Instant g0 = F.minus(Duration.ofHours(1));
    for (int s = 0; s < 120; s++) {
      GpuSample a = SampleRecords.gpu(CL, "qa-n1", 0, ms(g0.plusSeconds(s)), s);
      a.setThrottleReasons(s < 60 ? 0x20L : 0L); // SW thermal for the whole first minute
      a.setEccSbeTotal((long) (s / 30)); // +4 over the two minutes... 0,1,2,3 -> increase 3
      gpu.add(a);
      GpuSample b = SampleRecords.gpu(CL, "qa-n2", 1, ms(g0.plusSeconds(s)), s);
      b.setEccSbeTotal(0L);
      b.setEccDbeTotal(s < 100 ? 0L : 1L);
      gpu.add(b);
    }
    DirectWriter.write(c, Topics.GPU, gpu);

    // health: relative to the real clock (gpu_health looks back from now())
    Instant h = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MINUTES);
    List<GpuSample> health = new ArrayList<>();
    for (int gi = 0; gi < 2; gi++) {
      for (int s = 0; s < 2; s++) {
        GpuSample x = SampleRecords.gpu("qa-h", "qa-h1", gi, ms(h.plusSeconds(s)), s);
        x.setEccSbeTotal(0L);
        x.setEccDbeTotal(gi == 0 && s == 1 ? 2L : 0L);
        x.setRowRemapFailure(gi == 0 && s == 1);
        health.add(x);
      }
    }
    DirectWriter.write(c, Topics.GPU, health);
    DirectWriter.write(c, Topics.GPU_XID, List.of(GpuXid.newBuilder().setTs(ms(h)).setCluster("qa-h").setNode("qa-h1")
        .setAgentSeq(9).setGpu(0).setXid(79).setMessage("GPU has fallen off the bus").build()));

    List<RailBandwidth> rails = new ArrayList<>();
    Instant r0 = F.minus(Duration.ofMinutes(30));
    double[] u0 = {0.5, 0.7, 0.5, 0.7, 0.5, 0.7};
    for (int w = 0; w < 6; w++) {
      long end = ms(r0.plusSeconds(10L * (w + 1)));
      for (int rail = 0; rail < 2; rail++) {
        double u = rail == 0 ? u0[w] : 0.2;
        rails.add(RailBandwidth.newBuilder().setTs(end).setWindowStart(end - 10_000).setWindowEnd(end).setCluster(CL)
            .setRail(rail).setTxGbps(u * 400).setRxGbps(u * 380).setLineRateGbps(400).setUtilisation(u).setPortsUp(rail == 0 ? 8 : 7)
            .setPortsTotal(8).build());
      }
    }
    DirectWriter.write(c, Topics.RAIL_BW, rails);

    List<CheckpointSlo> slo = new ArrayList<>();
    double[] gbps = {20, 18, 10, 25};
    for (int i = 0; i < 4; i++) {
      slo.add(CheckpointSlo.newBuilder().setTs(ms(F.minus(Duration.ofHours(4 - i)))).setCluster(CL).setJob("job-a")
          .setStep(100L * i).setTier("lustre").setBytes(1_000_000_000_000L).setDurationS(1000 / gbps[i])
          .setThroughputGbps(gbps[i]).setSloSeconds(60).setCompliant(1000 / gbps[i] <= 60).setBurnRate1h(0.1 * i).build());
    }
    DirectWriter.write(c, Topics.CKPT_SLO, slo);

    Alert v1 = Alert.newBuilder().setTs(ms(F.minus(Duration.ofMinutes(50)))).setFingerprint("inc-1").setStatus("firing")
        .setLabels(Map.of("alertname", "GpuThrottling", "severity", "warning")).setStartsAt(ms(F.minus(Duration.ofMinutes(50))))
        .setMembers(List.of("fp-a")).setVersion(1L).build();
    Alert v2 = Alert.newBuilder(v1).setTs(ms(F.minus(Duration.ofMinutes(40)))).setMembers(List.of("fp-a", "fp-b")).setVersion(2L).build();
    Alert v3 = Alert.newBuilder(v2).setTs(ms(F.minus(Duration.ofMinutes(10)))).setStatus("resolved").setVersion(3L).build();
    DirectWriter.write(c, Topics.ALERTS, List.of(v1, v2, v3));
    // jobs of incidents: inc-2 touches llama-70b-run3 (1,024 GPUs, last checkpoint 47 min before the incident) and
    // bert-ft-7 (no checkpoint yet), and grows from 4 to 8 llama GPUs 10 min later; inc-3 touched llama 3 h earlier
    long llamaCkpt = ms(F.minus(Duration.ofMinutes(77)));
    Alert j1 = Alert.newBuilder().setTs(ms(F.minus(Duration.ofMinutes(30)))).setFingerprint("inc-2").setStatus("firing")
        .setLabels(Map.of("alertname", "CoolantFlowLow", "severity", "critical", "cluster", CL))
        .setAnnotations(Map.of("summary", "CoolantFlowLow on CDU cdu-1 loop a"))
        .setStartsAt(ms(F.minus(Duration.ofMinutes(30)))).setVersion(1L)
        .setJobs(List.of(job("llama-70b-run3", 4, 1024, llamaCkpt, F.minus(Duration.ofMinutes(30))),
            job("bert-ft-7", 8, 16, null, F.minus(Duration.ofMinutes(30))))).build();
    Alert j2 = Alert.newBuilder(j1).setTs(ms(F.minus(Duration.ofMinutes(20)))).setVersion(2L)
        .setJobs(List.of(job("llama-70b-run3", 8, 1024, llamaCkpt, F.minus(Duration.ofMinutes(20))),
            job("bert-ft-7", 8, 16, null, F.minus(Duration.ofMinutes(20))))).build();
    Alert j3 = Alert.newBuilder(j2).setTs(ms(F.minus(Duration.ofMinutes(5)))).setStatus("resolved")
        .setEndsAt(ms(F.minus(Duration.ofMinutes(5)))).setVersion(3L).build();
    Alert k1 = Alert.newBuilder().setTs(ms(F.minus(Duration.ofHours(3)))).setFingerprint("inc-3").setStatus("firing")
        .setLabels(Map.of("alertname", "IbLinkDown", "severity", "critical", "cluster", CL)).setStartsAt(ms(F.minus(Duration.ofHours(3))))
        .setVersion(1L).setJobs(List.of(job("llama-70b-run3", 8, 1024, ms(F.minus(Duration.ofHours(3)).minus(Duration.ofMinutes(6))),
            F.minus(Duration.ofHours(3))))).build();
    DirectWriter.write(c, Topics.ALERTS, List.of(j1, j2, j3, k1));
    DirectWriter.write(c, Topics.ANOMALIES, List.of(
        anomaly("fp-a", "firing", F.minus(Duration.ofMinutes(51))),
        anomaly("fp-b", "firing", F.minus(Duration.ofMinutes(41))),
        anomaly("fp-a", "resolved", F.minus(Duration.ofMinutes(12))),
        anomaly("fp-z", "firing", F.minus(Duration.ofMinutes(45)))));
    // jobs of anomalies: job-b (qa-n1 GPUs 0-3 from F-1h) checkpointed at F-70min and F-30min; an anomaly on GPU 2 of
    // qa-n1 at F-50min is job-b's; one on GPU 3 at F-90min is nobody's (job-a held GPUs 0-1 then)
    DirectWriter.write(c, Topics.CKPT, List.of(ckpt("job-b", 1, F.minus(Duration.ofMinutes(70))),
        ckpt("job-b", 2, F.minus(Duration.ofMinutes(30))), ckpt("job-a", 1, F.minus(Duration.ofHours(3)))));
    DirectWriter.write(c, Topics.ANOMALIES, List.of(
        Anomaly.newBuilder(anomaly("fp-g2", "firing", F.minus(Duration.ofMinutes(50))))
            .setLabels(Map.of("alertname", "GpuEccCorrectableRising", "node", "qa-n1", "gpu", "2")).build(),
        Anomaly.newBuilder(anomaly("fp-g3", "firing", F.minus(Duration.ofMinutes(90))))
            .setLabels(Map.of("alertname", "GpuEccCorrectableRising", "node", "qa-n1", "gpu", "3")).build()));
  }

  /** A job of an incident as the correlator computes it: job size x hours since its last checkpoint. */
  static JobImpact job(String job, int affected, int size, Long lastCheckpoint, Instant at) {
    Long age = lastCheckpoint == null ? null : (ms(at) - lastCheckpoint) / 1000;
    return JobImpact.newBuilder().setJob(job).setGpusAffected(affected).setJobGpus(size).setLastCheckpointTs(lastCheckpoint)
        .setCheckpointAgeS(age).setGpuHoursAtRisk(age == null ? null : size * age / 3600.0).build();
  }

  static CheckpointEvent ckpt(String job, long step, Instant finished) {
    return CheckpointEvent.newBuilder().setTs(ms(finished)).setCluster(CL).setNode("qa-n1").setAgentSeq(100 + step).setJob(job)
        .setStep(step).setBytes(1_000_000_000_000L).setStartedTs(ms(finished.minusSeconds(50))).setFinishedTs(ms(finished))
        .setTier("lustre").setStatus("completed").build();
  }

  static Anomaly anomaly(String fp, String status, Instant ts) {
    return Anomaly.newBuilder().setTs(ms(ts)).setFingerprint(fp).setStatus(status)
        .setLabels(Map.of("alertname", "GpuThrottling", "node", "qa-n1")).setStartsAt(ms(ts)).build();
  }

  record Out(int code, String out, String err) {}

  static Out query(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = QueryMain.run(args, Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  static List<String> csvRows(Out o) {
    assertThat(o.code()).as(o.err()).isZero();
    List<String> lines = new ArrayList<>(o.out().lines().toList());
    lines.remove(0);
    return lines;
  }

  @Test
  void gpuHistory() {
    Instant from = F.minus(Duration.ofHours(1));
    List<String> rows = csvRows(query("gpu-history", "--param", "node=qa-n1", "--param", "gpu=0", "--param", "from=" + from,
        "--param", "to=" + from.plusSeconds(10), "--format", "csv"));
    assertThat(rows).hasSize(10);
    assertThat(rows.get(0)).startsWith(from + ",qa,qa-n1,0,");
  }

  @Test
  void throttleMinutesPerRack() {
    assertThat(csvRows(query("throttle-minutes-per-rack", "--param", "from=" + F.minus(Duration.ofHours(2)), "--param", "to=" + F,
        "--param", "cluster=qa", "--format", "csv")))
        .containsExactly("qa,R1,1.00,1.00,1,1", "qa,R2,0.00,0.00,0,1");
  }

  @Test
  void worstGpusByEcc() {
    assertThat(csvRows(query("worst-gpus-ecc", "--param", "days=1", "--param", "until=" + F, "--param", "cluster=qa",
        "--format", "csv")))
        .containsExactly("qa,qa-n2,1,GPU-qa-n2-1,1,0,0,false", "qa,qa-n1,0,GPU-qa-n1-0,0,3,0,false");
  }

  @Test
  void railUtilisation() {
    assertThat(csvRows(query("rail-utilisation", "--param", "from=" + F.minus(Duration.ofHours(1)), "--param", "to=" + F,
        "--format", "csv")))
        .containsExactly("qa,0,6,0.6000,0.7000,240.00,280.00,228.00,266.00,8,8,", "qa,1,6,0.2000,0.2000,80.00,80.00,76.00,76.00,7,8,");
  }

  @Test
  void nvlinkNodeBandwidth() throws Exception {
    // qa-n1: nvidia-smi counters on 2 links, 1.25 GB and 2.5 GB more every 10 s per link (1 and 2 Gbit/s);
    // qa-n2: dcgm-exporter's all-links rates (link -1); a row before the range must not count
    Instant t0 = F.minus(Duration.ofMinutes(50));
    List<NvlinkSample> rows = new ArrayList<>();
    rows.add(nvlink("qa-n1", 0, t0.minusSeconds(600)).setTxBytes(0L).setRxBytes(0L).build());
    for (int i = 0; i < 4; i++) {
      for (int link = 0; link < 2; link++) {
        rows.add(nvlink("qa-n1", link, t0.plusSeconds(10L * i)).setTxBytes(1_000_000_000_000L + i * 1_250_000_000L)
            .setRxBytes(2_000_000_000_000L + i * 2_500_000_000L).build());
      }
      rows.add(nvlink("qa-n2", -1, t0.plusSeconds(10L * i)).setSource("dcgm-exporter").setTxBytesPerS(5e9).setRxBytesPerS(2.5e9).build());
    }
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.NVLINK, rows);
    }
    List<String> out = csvRows(query("nvlink-node-bandwidth", "--param", "from=" + t0, "--param", "to=" + t0.plusSeconds(60),
        "--param", "cluster=qa", "--format", "csv"));
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).startsWith("qa,qa-n2,1,40.00,20.00,");
    assertThat(out.get(1)).startsWith("qa,qa-n1,2,2.00,4.00,");
  }

  static NvlinkSample.Builder nvlink(String node, int link, Instant ts) {
    return NvlinkSample.newBuilder().setTs(ms(ts)).setCluster(CL).setNode(node).setAgentSeq(ms(ts)).setSource("nvidia-smi-nvlink")
        .setGpu(0).setLink(link);
  }

  @Test
  void checkpointSloPerJob() {
    // throughputs 20, 18, 10, 25 GB/s for 1 TB: 50 s, 55.6 s, 100 s, 40 s against 60 s -> 3 of 4 compliant
    assertThat(csvRows(query("ckpt-slo-per-job", "--param", "from=" + F.minus(Duration.ofDays(1)), "--param", "to=" + F,
        "--format", "csv")))
        .containsExactly("qa,job-a,4,3,75.0,19.00,100.0,0.30000000000000004,,");
  }

  @Test
  void incidentTimeline() {
    List<String> rows = csvRows(query("incident-timeline", "--param", "fingerprint=inc-1", "--format", "csv"));
    assertThat(rows.stream().map(r -> String.join(",", java.util.Arrays.asList(r.split(",")).subList(1, 5))).toList())
        .containsExactly("anomaly,fp-a,firing,GpuThrottling", "alert,inc-1,firing,GpuThrottling",
            "anomaly,fp-b,firing,GpuThrottling", "alert,inc-1,firing,GpuThrottling",
            "anomaly,fp-a,resolved,GpuThrottling", "alert,inc-1,resolved,GpuThrottling");
  }

  @Test
  void jobIncidentsListAJobsIncidentsWithTheirCostNewestFirst() {
    List<String> llama = csvRows(query("job-incidents", "--param", "job=llama-70b-run3", "--param", "from=" + F.minus(Duration.ofDays(1)),
        "--param", "to=" + F, "--format", "csv"));
    // inc-2: the most GPUs (8) and GPU-hours (1,024 x 57 min = 972.8) over its versions, its age when it first named the job
    assertThat(llama).containsExactly(
        F.minus(Duration.ofMinutes(30)) + "," + F.minus(Duration.ofMinutes(5)) + ",resolved,inc-2,CoolantFlowLow,critical,8,1024,"
            + F.minus(Duration.ofMinutes(77)) + ",47 min,972.8,CoolantFlowLow on CDU cdu-1 loop a",
        F.minus(Duration.ofHours(3)) + ",,firing,inc-3,IbLinkDown,critical,8,1024,"
            + F.minus(Duration.ofHours(3)).minus(Duration.ofMinutes(6)) + ",6 min,102.4,");
    List<String> bert = csvRows(query("job-incidents", "--param", "job=bert-ft-7", "--param", "from=" + F.minus(Duration.ofDays(1)),
        "--param", "to=" + F, "--format", "csv"));
    assertThat(bert).containsExactly(F.minus(Duration.ofMinutes(30)) + "," + F.minus(Duration.ofMinutes(5))
        + ",resolved,inc-2,CoolantFlowLow,critical,8,16,,no checkpoint yet,,CoolantFlowLow on CDU cdu-1 loop a");
    assertThat(csvRows(query("job-incidents", "--param", "job=no-such-job", "--format", "csv"))).isEmpty();
  }

  @Test
  void everyAnomalyOnANodeGetsTheJobsThatHeldItsGpusThen() throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = env.connect(); var st = c.createStatement(); var rs = st.executeQuery(
        "SELECT fingerprint, status, job, gpus::text, job_gpus, last_checkpoint, round(gpu_hours_at_risk::numeric, 3) AS risk "
            + "FROM v_anomaly_jobs WHERE fingerprint IN ('fp-a', 'fp-g2', 'fp-g3') ORDER BY ts")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + "," + rs.getString(2) + "," + rs.getString(3) + "," + rs.getString(4) + "," + rs.getInt(5) + ","
            + rs.getTimestamp(6).toInstant() + "," + rs.getBigDecimal(7));
      }
    }
    // job-b: 4 GPUs; 19 min, 20 min and 18 min after its last completed checkpoint -> 4 x minutes / 60 GPU-hours
    assertThat(rows).containsExactly(
        "fp-a,firing,job-b,{0,1,2,3},4," + F.minus(Duration.ofMinutes(70)) + ",1.267",
        "fp-g2,firing,job-b,{2},4," + F.minus(Duration.ofMinutes(70)) + ",1.333",
        "fp-a,resolved,job-b,{0,1,2,3},4," + F.minus(Duration.ofMinutes(30)) + ",1.200");
  }

  /**
   * A node whose GPU 0 is in MIG mode: mig-a holds its MIG device with GPU instance 9, mig-b the one
   * with GPU instance 10, mig-gpu was sent with GPU 0 only (its MIG device not resolved). An anomaly
   * on MIG device 0/gi9 is mig-a's and, since it cannot be ruled out, mig-gpu's; one on GPU 0 is all
   * three jobs'.
   */
  @Test
  void anAnomalyOnAMigDeviceIsTheJobsOnThatMigDevice() throws Exception {
    Instant t = F.minus(Duration.ofMinutes(20));
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.JOBS, List.of(JobAllocations.newBuilder().setTs(ms(t.minusSeconds(60))).setCluster("qa-mig")
          .setNode("qa-m1").setAgentSeq(1).setAllocations(List.of(
              GpuAllocation.newBuilder().setJob("mig-a").setGpus(List.of(0)).setMigDevices(List.of(mig(9))).build(),
              GpuAllocation.newBuilder().setJob("mig-b").setGpus(List.of(0)).setMigDevices(List.of(mig(10))).build(),
              GpuAllocation.newBuilder().setJob("mig-gpu").setGpus(List.of(0)).build())).build()));
      DirectWriter.write(c, Topics.ANOMALIES, List.of(
          Anomaly.newBuilder(anomaly("fp-mig9", "firing", t)).setLabels(Map.of("alertname", "GpuEccUncorrectable", "cluster", "qa-mig",
              "node", "qa-m1", "gpu", "0", "gpu_instance_id", "9")).build(),
          Anomaly.newBuilder(anomaly("fp-mig-gpu0", "firing", t)).setLabels(Map.of("alertname", "GpuThermalThrottleRisk",
              "cluster", "qa-mig", "node", "qa-m1", "gpu", "0")).build()));
      List<String> rows = new ArrayList<>();
      try (var st = c.createStatement(); var rs = st.executeQuery(
          "SELECT fingerprint, job, gpus::text FROM v_anomaly_jobs WHERE fingerprint LIKE 'fp-mig%' ORDER BY fingerprint, job")) {
        while (rs.next()) {
          rows.add(rs.getString(1) + "," + rs.getString(2) + "," + rs.getString(3));
        }
      }
      assertThat(rows).containsExactly("fp-mig-gpu0,mig-a,{0}", "fp-mig-gpu0,mig-b,{0}", "fp-mig-gpu0,mig-gpu,{0}",
          "fp-mig9,mig-a,{0}", "fp-mig9,mig-gpu,{0}");
    }
  }

  static io.fleetscope.avro.MigDeviceRef mig(int gi) {
    return io.fleetscope.avro.MigDeviceRef.newBuilder().setGpu(0).setGpuInstanceId(gi).setComputeInstanceId(0).build();
  }

  @Test
  void nodeChanges() {
    List<String> rows = csvRows(query("node-changes", "--param", "node=qa-n1", "--param", "from=" + F.minus(Duration.ofHours(3)),
        "--param", "to=" + F, "--format", "csv"));
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0)).startsWith(F.minus(Duration.ofHours(2)) + ",inventory,");
    assertThat(rows.get(1)).startsWith(F.minus(Duration.ofHours(2)) + ",jobs,first record,\"job-a:gpus=[0, 1]\"");
    assertThat(rows.get(2)).startsWith(F.minus(Duration.ofHours(1)) + ",inventory,attributes,");
    assertThat(rows.get(3)).startsWith(F.minus(Duration.ofHours(1)) + ",jobs,allocations,\"job-b:gpus=[0, 1, 2, 3]\"");
  }

  @Test
  void gpuHealthFindsTheLemon() {
    Out o = query("gpu-health", "--param", "cluster=qa-h", "--format", "json");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("\"health\" : 20.0", "\"lemon\" : true", "\"main_factor\" : \"row_remap_failure\"",
        "\"health\" : 100.0");
    assertThat(o.out().indexOf("\"health\" : 20.0")).isLessThan(o.out().indexOf("\"health\" : 100.0"));
  }

  @Test
  void clearMessagesForWrongNamesAndParameters() {
    Out unknown = query("gpu-histroy");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("unknown query 'gpu-histroy'", "gpu-history", "node-changes");
    Out badParam = query("gpu-history", "--param", "nod=x");
    assertThat(badParam.code()).isEqualTo(2);
    assertThat(badParam.err()).contains("unknown parameter 'nod'", "allowed: node, gpu, from, to, limit");
    Out badInt = query("gpu-history", "--param", "node=x", "--param", "gpu=zero");
    assertThat(badInt.err()).contains("parameter gpu must be a whole number, got 'zero'");
    Out missing = query("gpu-history", "--param", "gpu=1");
    assertThat(missing.err()).contains("needs --param node=");
    Out badTime = query("rail-utilisation", "--param", "from=yesterday");
    assertThat(badTime.err()).contains("parameter from must be a time");
    Out list = query();
    assertThat(list.out()).contains("gpu-history", "worst-gpus-ecc", "rail-utilisation", "throttle-minutes-per-rack",
        "ckpt-slo-per-job", "incident-timeline", "node-changes", "gpu-health");
  }

  @Test
  void parametersAreBoundNotConcatenated() {
    List<String> rows = csvRows(query("node-changes", "--param", "node=qa-n1' OR '1'='1", "--param",
        "from=" + F.minus(Duration.ofDays(1)), "--param", "to=" + F, "--format", "csv"));
    assertThat(rows).isEmpty();
  }
}
