package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.sink.export.IncidentExportMain;
import io.fleetscope.stack.services.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ExportMain and IncidentExportMain write bundles from the real TimescaleDB: a rack's records; an incident with its members and versions. */
class ExportIT {
  static SinkTestEnv env;
  static final Instant T = Instant.parse("2026-05-31T10:00:00Z");
  static final List<GpuSample> inRackR1 = new ArrayList<>();
  static PduReading pduR1;

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_export");
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      DirectWriter.write(c, Topics.INVENTORY, List.of(
          InventoryRecord.newBuilder().setTs(T.minusSeconds(3600).toEpochMilli()).setCluster("ex").setKind("node").setId("ex-n1")
              .setRack("R1").setPduOutlets(List.of("ex-pdu1/A1")).setCdu("ex-cdu1").build(),
          InventoryRecord.newBuilder().setTs(T.minusSeconds(3600).toEpochMilli()).setCluster("ex").setKind("node").setId("ex-n2")
              .setRack("R2").build(),
          InventoryRecord.newBuilder().setTs(T.minusSeconds(3600).toEpochMilli()).setCluster("ex").setKind("pdu").setId("ex-pdu1")
              .setRacks(List.of("R1")).build()));
      List<GpuSample> gpu = new ArrayList<>();
      for (int s = -5; s < 15; s++) {
        for (String node : new String[] {"ex-n1", "ex-n2"}) {
          GpuSample g = SampleRecords.gpu("ex", node, 0, T.plusSeconds(s).toEpochMilli(), s + 5);
          gpu.add(g);
          if (node.equals("ex-n1") && s >= 0 && s < 10) {
            inRackR1.add(g);
          }
        }
      }
      DirectWriter.write(c, Topics.GPU, gpu);
      pduR1 = PduReading.newBuilder().setTs(T.plusSeconds(1).toEpochMilli()).setCluster("ex").setDevice("ex-pdu1").setAgentSeq(1)
          .setOutlet("A1").setPowerW(900.0).build();
      PduReading pduOther = PduReading.newBuilder(pduR1).setDevice("ex-pdu2").build();
      DirectWriter.write(c, Topics.PDU, List.of(pduR1, pduOther));
      long start = T.plusSeconds(2).toEpochMilli();
      long end = T.plusSeconds(8).toEpochMilli();
      Anomaly ecc = Anomaly.newBuilder().setTs(start).setFingerprint("an-ecc").setStatus("firing")
          .setLabels(Map.of("alertname", "GpuEccUncorrectable", "cluster", "ex", "node", "ex-n1", "gpu", "0", "severity", "critical"))
          .setAnnotations(Map.of()).setStartsAt(start).setSource("ecc").build();
      DirectWriter.write(c, Topics.ANOMALIES, List.of(ecc));
      Alert firing = Alert.newBuilder().setTs(start).setFingerprint("inc-ecc").setStatus("firing").setLabels(ecc.getLabels())
          .setAnnotations(Map.of()).setStartsAt(start).setMembers(List.of("an-ecc")).setVersion(1L).build();
      Alert resolved = Alert.newBuilder(firing).setTs(end).setStatus("resolved").setEndsAt(end).setVersion(2L).build();
      Alert other = Alert.newBuilder(firing).setFingerprint("inc-other").setMembers(List.of("an-other")).build();
      DirectWriter.write(c, Topics.ALERTS, List.of(firing, resolved, other));
    }
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void exportsOneRackAsABundle(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ExportMain.run(new String[] {"--from", T.toString(), "--to", T.plusSeconds(10).toString(), "--where", "rack=R1",
        "--out", dir.toString(), "--source", "timescaledb"}, Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("export topic=fleet.gpu.v1 role=raw source=timescaledb records=10",
        "export done records=17", "records/fleet.gpu.v1.avro", "TOTAL");

    BundleReader bundle = BundleReader.open(dir);
    assertThat(values(bundle, Topics.GPU)).containsExactlyElementsOf(inRackR1);
    assertThat(values(bundle, Topics.PDU)).containsExactly(pduR1);
    assertThat(values(bundle, Topics.INVENTORY)).extracting(r -> ((InventoryRecord) r).getId())
        .containsExactlyInAnyOrder("ex-n1", "ex-pdu1");
    assertThat(bundle.lines(BundleRole::isInput)).filteredOn(l -> l.topic().equals(Topics.GPU)).first()
        .satisfies(l -> assertThat(l.key()).isEqualTo("ex-n1"));
    Manifest m = bundle.manifest();
    // 10 GPU samples, 1 PDU reading, 2 inventory records, the ECC anomaly, and the 3 incident versions labelling ex-n1
    assertThat(m.records()).isEqualTo(17);
    assertThat(m.scope()).containsEntry("rack", List.of("R1")).containsEntry("resolved_node", List.of("ex-n1"));
    assertThat(m.files()).allSatisfy(f -> assertThat(f.source()).isEqualTo(RecordSource.TIMESCALEDB));
    assertThat(values(bundle, Topics.ALERTS)).extracting(r -> ((Alert) r).getFingerprint())
        .containsExactlyInAnyOrder("inc-ecc", "inc-ecc", "inc-other");
  }

  @Test
  void exportsAnIncidentWithItsMembersVersionsAndRacks(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = IncidentExportMain.run(new String[] {"inc-ecc", "--out", dir.toString(), "--margin", "5s", "--source", "timescaledb"},
        Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    BundleReader bundle = BundleReader.open(dir);
    Manifest m = bundle.manifest();
    assertThat(m.incident()).isEqualTo("inc-ecc");
    // from 5 s before the first starts_at (T+2s) to 5 s after the resolution (T+8s)
    assertThat(m.from()).isEqualTo(T.minusSeconds(3));
    assertThat(m.to()).isEqualTo(T.plusSeconds(13));
    assertThat(m.scope()).containsEntry("node", List.of("ex-n1")).containsEntry("rack", List.of("R1"));
    assertThat(values(bundle, Topics.ALERTS)).extracting(r -> ((Alert) r).getVersion()).containsExactly(1L, 2L);
    assertThat(values(bundle, Topics.ANOMALIES)).extracting(r -> ((Anomaly) r).getFingerprint()).containsExactly("an-ecc");
    // the node's GPU samples in the window, none of ex-n2 (another rack)
    assertThat(values(bundle, Topics.GPU)).hasSize(16).allSatisfy(r -> assertThat(((GpuSample) r).getNode()).isEqualTo("ex-n1"));
  }

  @Test
  void refusesAnUnknownIncident(@TempDir Path dir) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = IncidentExportMain.run(new String[] {"no-such", "--out", dir.toString()},
        Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no incident with fingerprint no-such");
  }

  @Test
  void refusesUnknownFilters(@TempDir Path dir) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ExportMain.run(new String[] {"--from", "now-1h", "--to", "now", "--where", "gpu=1", "--out", dir.toString()},
        Map.of(), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--where must be one of cluster=..., node=..., rack=...");
  }

  private static List<Object> values(BundleReader bundle, String topic) {
    return new ArrayList<>(bundle.records(bundle.manifest().files().stream().filter(f -> topic.equals(f.topic()))
        .findFirst().orElseThrow()));
  }
}
