package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.stack.services.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

/** ExportMain writes an incident's raw records (JSON lines per topic + manifest) from the real TimescaleDB. */
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
    }
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void exportsOneRackOfOneIncidentAsJsonLines(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ExportMain.run(new String[] {"--from", T.toString(), "--to", T.plusSeconds(10).toString(), "--where", "rack=R1",
        "--out", dir.toString()}, Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("export topic=fleet.gpu.v1 records=10", "export done records=13");

    List<Object> gpu = values(dir.resolve("fleet.gpu.v1.jsonl"));
    assertThat(gpu).containsExactlyElementsOf(inRackR1);
    assertThat(values(dir.resolve("fleet.pdu.v1.jsonl"))).containsExactly(pduR1);
    assertThat(values(dir.resolve("fleet.inventory.v1.jsonl"))).extracting(r -> ((InventoryRecord) r).getId())
        .containsExactlyInAnyOrder("ex-n1", "ex-pdu1");
    assertThat(Files.readAllLines(dir.resolve("fleet.gpu.v1.jsonl")).get(0)).startsWith("{\"topic\":\"fleet.gpu.v1\",\"key\":\"ex-n1\"");

    JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
    assertThat(manifest.get("records").asLong()).isEqualTo(13);
    assertThat(manifest.get("where").get("rack").asText()).isEqualTo("R1");
    assertThat(manifest.get("files")).hasSize(8);
  }

  @Test
  void refusesUnknownFilters(@TempDir Path dir) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ExportMain.run(new String[] {"--from", "now-1h", "--to", "now", "--where", "gpu=1", "--out", dir.toString()},
        Map.of(), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--where must be one of cluster=..., node=..., rack=...");
  }

  private static List<Object> values(Path f) throws Exception {
    List<Object> out = new ArrayList<>();
    for (String l : Files.readAllLines(f)) {
      out.add(JsonLines.parse(l).value());
    }
    return out;
  }
}
