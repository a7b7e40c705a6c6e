package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.query.QueryMain;
import io.fleetscope.stack.services.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The named queries storage-tiers and fabric-config (V029), through QueryMain on the real
 * TimescaleDB, on samples, port configurations and anomalies written by the sink's writer, with
 * answers worked out by hand.
 */
class StorageFabricQueriesIT {
  static SinkTestEnv env;
  static final Instant F = Instant.parse("2026-06-02T12:00:00Z");
  static final String CL = "qs";

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_storage_fabric_queries");
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      seed(c);
    }
  }

  @AfterAll
  static void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  static long ms(Instant i) {
    return i.toEpochMilli();
  }

  static void seed(Connection c) throws Exception {
    List<StorageSample> s = new ArrayList<>();
    Instant t0 = F.minus(Duration.ofMinutes(10));
    for (int i = 0; i <= 10; i++) {
      Instant t = t0.plus(Duration.ofMinutes(i));
      // qs-1 nvme0: 1 GB written per minute; media errors 5 until minute 6, then +2 per minute; spare 100 -> 4 at the end
      s.add(nvme("qs-1", t, i, 1_000_000_000L * i, i < 6 ? 5 : 5 + 2L * (i - 5), i == 10 ? 1 : 0, i == 10 ? 4 : 100, 40 + i));
      // qs-2 nvme0: worn (85 % used) but stable, old media errors that never rise
      s.add(nvme("qs-2", t, i, 500_000_000L * i, 12, 0, 90, 38));
      // lustre: qs-1 60 MB/min written in 600 writes of 10 ms; qs-2 the same but 50 ms per write, and its client
      // remounted at minute 5 (every counter starts again from 0)
      s.add(pfs("qs-1", t, i, 60_000_000L * i, 600L * i, 6_000L * i));
      long k = i < 5 ? i : i - 5;
      s.add(pfs("qs-2", t, i, 60_000_000L * k, 600L * k, 30_000L * k));
    }
    s.add(nvme("qs-1", F.plus(Duration.ofMinutes(5)), 99, 0, 0, 0, 100, 30)); // after the range: not counted
    Instant t5 = F.minus(Duration.ofHours(2)).minus(Duration.ofMinutes(10));
    for (int i = 0; i <= 10; i++) {
      s.add(pfs("qs-5", t5.plus(Duration.ofMinutes(i)), i, 60_000_000L * i, 600L * i, 6_000L * i));
    }
    DirectWriter.write(c, Topics.STORAGE, s);
    DirectWriter.write(c, Topics.ANOMALIES, List.of(
        anomaly("fp-media", "firing", F.minus(Duration.ofMinutes(4)), Map.of("alertname", "NvmeMediaErrors", "severity", "warning",
            "cluster", CL, "node", "qs-1", "tier", "local-nvme", "device", "nvme0")),
        // the whole lustre tier was slow two hours ago, resolved an hour ago: not active in the last 10 minutes
        anomaly("fp-tier", "firing", F.minus(Duration.ofHours(2)), Map.of("alertname", "StorageTierDegraded", "severity", "warning",
            "cluster", CL, "tier", "lustre")),
        anomaly("fp-tier", "resolved", F.minus(Duration.ofHours(1)), Map.of("alertname", "StorageTierDegraded",
            "severity", "warning", "cluster", CL, "tier", "lustre")),
        // qs-2's lustre client slow, firing since before the range
        anomaly("fp-client", "firing", F.minus(Duration.ofMinutes(30)), Map.of("alertname", "StorageTierDegraded",
            "severity", "warning", "cluster", CL, "tier", "lustre", "node", "qs-2", "device", "lustre-ffff9a0c1b2d3000"))));

    // rail 1: four RoCE ports; qs-3's came back with PFC off and MTU 1500; rail 2 has two ports only
    List<PortConfig> ports = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      boolean bad = n == 3;
      ports.add(port("qs-" + n, "mlx5_1", 1, F.minus(Duration.ofHours(1)), List.of(3), 9000));
      if (bad) {
        ports.add(port("qs-" + n, "mlx5_1", 1, F.minus(Duration.ofMinutes(20)), List.of(), 1500));
      }
    }
    ports.add(port("qs-1", "mlx5_2", 2, F.minus(Duration.ofHours(1)), List.of(3), 9000));
    ports.add(port("qs-2", "mlx5_2", 2, F.minus(Duration.ofHours(1)), List.of(3, 4), 9000));
    // an InfiniBand rail of another cluster: four ports at 400 Gb/s (4X NDR), one trained at 2X; MTU 4096 and
    // SL i on VL i mod 2 (ibv_devinfo, smpquery) except ib-3, whose table maps every SL to VL 0, and ib-4 at MTU 2048
    List<Integer> vl2 = List.of(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
    for (int n = 1; n <= 4; n++) {
      boolean narrow = n == 2;
      ports.add(PortConfig.newBuilder().setTs(ms(F.minus(Duration.ofHours(1)))).setCluster("qs-ib").setNode("ib-" + n)
          .setAgentSeq(1).setSource("sysfs,ibv_devinfo,smpquery").setDevice("mlx5_3").setPort(1).setRail(3).setLinkLayer("InfiniBand")
          .setDcqcn(Map.of()).setRateGbps(narrow ? 200.0 : 400.0).setLinkWidth(narrow ? "2X" : "4X").setLinkSpeed("NDR")
          .setCapMask("0xa651ec48").setActiveMtu(n == 4 ? 2048 : 4096).setMaxMtu(4096)
          .setSl2vl(n == 3 ? java.util.Collections.nCopies(16, 0) : vl2).build());
    }
    DirectWriter.write(c, Topics.FABRIC_CONFIG, ports);
    DirectWriter.write(c, Topics.ANOMALIES, List.of(
        drift("fp-pfc", "firing", "qs-3", "pfc_prios", F.minus(Duration.ofMinutes(19)),
            "fabric configuration drift on qs-3 mlx5_1/1 (eth1): pfc_prios is [], expected [3] (site policy)"),
        drift("fp-mtu", "firing", "qs-3", "mtu_bytes", F.minus(Duration.ofMinutes(19)),
            "fabric configuration drift on qs-3 mlx5_1/1 (eth1): mtu_bytes is 1500, expected one of [4096, 9000] (site policy)"),
        // qs-4's trust drifted yesterday and was fixed
        drift("fp-trust", "firing", "qs-4", "trust", F.minus(Duration.ofDays(1)), "trust is pcp"),
        drift("fp-trust", "resolved", "qs-4", "trust", F.minus(Duration.ofHours(20)), "trust is dscp again")));
  }

  static StorageSample nvme(String node, Instant t, long seq, long written, long mediaErrors, int cw, int spare, double temp) {
    return StorageSample.newBuilder().setTs(ms(t)).setCluster(CL).setNode(node).setAgentSeq(seq).setSource("nvme-smart-log")
        .setTier("local-nvme").setDevice("nvme0").setCriticalWarning(cw).setMediaErrors(mediaErrors)
        .setPercentageUsed(node.equals("qs-2") ? 85 : 3).setAvailableSparePct(spare).setTempC(temp).setErrLogEntries(mediaErrors)
        .setReadBytes(0L).setWriteBytes(written).build();
  }

  static StorageSample pfs(String node, Instant t, long seq, long written, long ops, long timeMs) {
    return StorageSample.newBuilder().setTs(ms(t)).setCluster(CL).setNode(node).setAgentSeq(1000 + seq).setSource("lustre-llite")
        .setTier("lustre").setDevice("lustre-ffff9a0c1b2d3000").setReadBytes(0L).setWriteBytes(written).setReadOps(0L)
        .setWriteOps(ops).setReadTimeMs(0L).setWriteTimeMs(timeMs).build();
  }

  static PortConfig port(String node, String device, int rail, Instant t, List<Integer> pfc, int mtu) {
    return PortConfig.newBuilder().setTs(ms(t)).setCluster(CL).setNode(node).setAgentSeq(ms(t)).setSource("sysfs,mlnx_qos")
        .setDevice(device).setPort(1).setNetdev("eth" + rail).setRail(rail).setLinkLayer("Ethernet").setMtuBytes(mtu)
        .setTrust("dscp").setPfcPrios(pfc).setEcnNpPrios(List.of(3)).setEcnRpPrios(List.of(3)).setCnpDscp(48)
        .setDcqcn(Map.of()).build();
  }

  static Anomaly anomaly(String fp, String status, Instant ts, Map<String, String> labels) {
    return Anomaly.newBuilder().setTs(ms(ts)).setFingerprint(fp).setStatus(status).setLabels(labels).setStartsAt(ms(ts)).build();
  }

  static Anomaly drift(String fp, String status, String node, String field, Instant ts, String summary) {
    return Anomaly.newBuilder(anomaly(fp, status, ts, Map.of("alertname", "FabricConfigDrift", "severity", "warning", "cluster", CL,
        "node", node, "device", "mlx5_1", "port", "1", "field", field))).setAnnotations(Map.of("summary", summary)).build();
  }

  record Out(int code, String out, String err) {}

  static Out query(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = QueryMain.run(args, Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  static List<String> csv(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--format", "csv"));
    Out o = query(a.toArray(String[]::new));
    assertThat(o.code()).as(o.err()).isZero();
    List<String> lines = new ArrayList<>(o.out().lines().toList());
    lines.remove(0);
    return lines;
  }

  @Test
  void storageTiersGiveRatesLatencyHealthAndTheAlertsOfEachDeviceDegradedFirst() {
    String from = "from=" + F.minus(Duration.ofMinutes(10));
    String to = "to=" + F.plusSeconds(1);
    List<String> rows = csv("storage-tiers", "--param", from, "--param", to, "--param", "cluster=" + CL);
    // columns: cluster,node,tier,device,samples,first_ts,last_ts,read_mb_s,write_mb_s,read_ms_per_op,write_ms_per_op,
    // media_errors,media_errors_added,critical_warning,percentage_used,available_spare_pct_min,temp_c_max,state,alerts
    String first = F.minus(Duration.ofMinutes(10)) + "," + F + ",";
    assertThat(rows).containsExactly(
        // 10 GB in 600 s; errors 5 -> 15; spare 4 % and the spare bit at the end
        "qs,qs-1,local-nvme,nvme0,11," + first + "0.0,16.667,,,15,10,1,3,4,50.0,degraded,NvmeMediaErrors (warning)",
        // 60 MB/min = 1 MB/s; after the remount the counters restart: 9 intervals of 60 MB plus the first 0 -> 540 MB
        "qs,qs-2,lustre,lustre-ffff9a0c1b2d3000,11," + first + "0.0,0.9,,50.0,,,,,,,degraded,StorageTierDegraded (warning)",
        "qs,qs-1,lustre,lustre-ffff9a0c1b2d3000,11," + first + "0.0,1.0,,10.0,,,,,,,ok,",
        "qs,qs-2,local-nvme,nvme0,11," + first + "0.0,8.333,,,12,0,0,85,90,38.0,ok,");
    assertThat(csv("storage-tiers", "--param", from, "--param", to, "--param", "node=qs-1", "--param", "tier=local-nvme"))
        .hasSize(1).allMatch(r -> r.startsWith("qs,qs-1,local-nvme,nvme0,11,"));
  }

  @Test
  void aTierWideAlertMarksEveryClientOfTheTierWhileItIsActive() {
    // two hours earlier the whole lustre tier was slow (fp-tier); qs-2's own client alert (fp-client) came later
    Instant t = F.minus(Duration.ofHours(2));
    List<String> rows = csv("storage-tiers", "--param", "from=" + t.minus(Duration.ofMinutes(10)), "--param",
        "to=" + t.plusSeconds(1), "--param", "tier=lustre");
    assertThat(rows).containsExactly("qs,qs-5,lustre,lustre-ffff9a0c1b2d3000,11," + t.minus(Duration.ofMinutes(10)) + "," + t
        + ",0.0,1.0,,10.0,,,,,,,tier degraded,StorageTierDegraded (tier)");
  }

  @Test
  void fabricConfigShowsEveryPortWithWhatDiffersFromItsRailAndTheDriftFiringNow() {
    List<String> rows = csv("fabric-config", "--param", "cluster=" + CL);
    assertThat(rows).hasSize(6);
    // columns: ts,cluster,node,device,port,netdev,rail,link_layer,mtu_bytes,trust,pfc_prios,ecn_np_prios,ecn_rp_prios,
    // cnp_dscp,dcqcn,rate_gbps,link_width,link_speed,cap_mask,rail_ports,differs_from_rail,drift_fields,drift_since,drift,
    // active_mtu,max_mtu,sl2vl (V033; not reported by these RoCE ports: empty)
    assertThat(rows.get(0)).isEqualTo(F.minus(Duration.ofMinutes(20)) + ",qs,qs-3,mlx5_1,1,eth1,1,Ethernet,1500,dscp,[],[3],[3],48,{},,,,,4,"
        + "pfc_prios mtu_bytes,mtu_bytes pfc_prios," + F.minus(Duration.ofMinutes(19)) + ",\""
        + "fabric configuration drift on qs-3 mlx5_1/1 (eth1): mtu_bytes is 1500, expected one of [4096, 9000] (site policy); "
        + "fabric configuration drift on qs-3 mlx5_1/1 (eth1): pfc_prios is [], expected [3] (site policy)\",,,");
    // the others: nothing differs, nothing fires (qs-4's trust drift was resolved); rail 2 has too few ports to compare
    assertThat(rows.subList(1, 6)).allMatch(r -> r.endsWith(",,,,,,,"), "no drift");
    assertThat(rows.subList(1, 6)).extracting(r -> r.split(",")[2] + "/" + r.split(",")[3])
        .containsExactly("qs-1/mlx5_1", "qs-2/mlx5_1", "qs-4/mlx5_1", "qs-1/mlx5_2", "qs-2/mlx5_2");
    assertThat(csv("fabric-config", "--param", "cluster=" + CL, "--param", "only_drift=1")).hasSize(1).allMatch(r -> r.contains(",qs-3,mlx5_1,"));
    assertThat(csv("fabric-config", "--param", "rail=2")).hasSize(2);
    assertThat(csv("fabric-config", "--param", "node=qs-9")).isEmpty();
  }

  @Test
  void infinibandPortsThatDifferFromTheirRailInWidthSl2vlOrActiveMtuAreListed() {
    List<String> rows = csv("fabric-config", "--param", "cluster=qs-ib", "--param", "only_drift=1");
    String head = F.minus(Duration.ofHours(1)) + ",qs-ib,";
    String vl2 = "\"[0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]\"";
    assertThat(rows).containsExactly(
        head + "ib-2,mlx5_3,1,,3,InfiniBand,,,,,,,{},200.0,2X,NDR,0xa651ec48,4,rate_gbps link_width,,,,4096,4096," + vl2,
        head + "ib-3,mlx5_3,1,,3,InfiniBand,,,,,,,{},400.0,4X,NDR,0xa651ec48,4,sl2vl,,,,4096,4096,"
            + "\"[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\"",
        head + "ib-4,mlx5_3,1,,3,InfiniBand,,,,,,,{},400.0,4X,NDR,0xa651ec48,4,active_mtu,,,,2048,4096," + vl2);
    assertThat(csv("fabric-config", "--param", "cluster=qs-ib")).hasSize(4);
  }

  @Test
  void badParametersAreClearErrors() {
    Out o = query("storage-tiers", "--param", "tier=lustre", "--param", "from=last week");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("parameter from must be a time");
    Out d = query("fabric-config", "--param", "only_drift=yes");
    assertThat(d.err()).contains("parameter only_drift must be a whole number, got 'yes'");
    assertThat(query().out()).contains("storage-tiers", "fabric-config");
  }
}
