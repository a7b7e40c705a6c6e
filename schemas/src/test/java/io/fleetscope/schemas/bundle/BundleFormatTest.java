package io.fleetscope.schemas.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleFormatTest {
  static final Instant T0 = Instant.parse("2026-05-31T10:00:00Z");

  static GpuSample gpu(String node, long ts, double temp) {
    return GpuSample.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(ts).setGpu(0).setTempC(temp).build();
  }

  static Path writeSample(Path dir) throws Exception {
    try (BundleWriter w = BundleWriter.create(dir, T0, T0.plusSeconds(600), Map.of("node", List.of("n1")), "abc123")) {
      var inv = w.topic(Topics.INVENTORY, BundleRole.STATE, RecordSource.TIMESCALEDB, "id");
      inv.append(InventoryRecord.newBuilder().setTs(T0.toEpochMilli() - 1000).setCluster("c1").setKind("node").setId("n1")
          .setRack("R1").build());
      var g = w.topic(Topics.GPU, BundleRole.RAW, RecordSource.KAFKA, "node");
      g.schemaId(7);
      for (int i = 0; i < 100; i++) {
        g.append(gpu("n1", T0.toEpochMilli() + i * 1000L, 60 + i * 0.1));
      }
      w.topic(Topics.ANOMALIES, BundleRole.ANOMALIES, RecordSource.TIMESCALEDB, "fingerprint").append(Anomaly.newBuilder()
          .setTs(T0.toEpochMilli() + 50_000).setFingerprint("fp1").setStatus("firing")
          .setLabels(Map.of("alertname", "GpuEccUncorrectable", "node", "n1")).setAnnotations(Map.of())
          .setStartsAt(T0.toEpochMilli() + 50_000).setSource("ecc").build());
      w.text("labels.jsonl", BundleRole.LABELS, "{\"alertname\":\"GpuEccUncorrectable\"}\n");
    }
    return dir;
  }

  @Test
  void roundTripsRecordsKeysAndManifest(@TempDir Path dir) throws Exception {
    writeSample(dir);
    BundleReader r = BundleReader.open(dir);
    Manifest m = r.manifest();
    assertThat(m.format()).isEqualTo(Manifest.FORMAT);
    assertThat(m.fleetscopeVersion()).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(m.incident()).isEqualTo("abc123");
    assertThat(m.scope()).containsEntry("node", List.of("n1"));
    assertThat(m.records()).isEqualTo(102);
    BundleFile gpuFile = m.files().stream().filter(f -> Topics.GPU.equals(f.topic())).findFirst().orElseThrow();
    assertThat(gpuFile.source()).isEqualTo(RecordSource.KAFKA);
    assertThat(gpuFile.schemaId()).isEqualTo(7);
    assertThat(gpuFile.records()).isEqualTo(100);
    assertThat(gpuFile.sha256()).hasSize(64);
    assertThat(r.records(gpuFile)).hasSize(100).first().isEqualTo(gpu("n1", T0.toEpochMilli(), 60));

    List<JsonLines.Line> inputs = r.lines(BundleRole::isInput);
    assertThat(inputs).hasSize(101);
    assertThat(inputs.get(0).topic()).isEqualTo(Topics.INVENTORY);
    assertThat(inputs.get(0).key()).isEqualTo("n1");
    assertThat(inputs).extracting(BundleReader::ts).isSorted();
    assertThat(r.lines(role -> role == BundleRole.ANOMALIES)).singleElement().satisfies(l -> assertThat(l.key()).isEqualTo("fp1"));
    assertThat(r.text(BundleRole.LABELS)).contains("{\"alertname\":\"GpuEccUncorrectable\"}\n");
    assertThat(SizeReport.of(m)).contains("records/fleet.gpu.v1.avro").contains("TOTAL");
  }

  @Test
  void containerFilesAreReadableByAPlainAvroReaderWithTheirSchemaEmbedded(@TempDir Path dir) throws Exception {
    writeSample(dir);
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(dir.resolve("records/fleet.gpu.v1.avro").toFile(),
        new GenericDatumReader<>())) {
      assertThat(r.getSchema()).isEqualTo(GpuSample.getClassSchema());
      assertThat(r.getMetaString("avro.codec")).isEqualTo("deflate");
      assertThat(r.getMetaString(BundleWriter.TOPIC_META)).isEqualTo(Topics.GPU);
      assertThat(r.next().get("node").toString()).isEqualTo("n1");
    }
    // deflate makes 100 near-identical samples much smaller than their JSON
    long json = 100L * JsonLines.toJson(new JsonLines.Line(Topics.GPU, "n1", gpu("n1", 0, 60))).length();
    assertThat(Files.size(dir.resolve("records/fleet.gpu.v1.avro"))).isLessThan(json / 4);
  }

  @Test
  void refusesAMissingFileNamingIt(@TempDir Path dir) throws Exception {
    writeSample(dir);
    Files.delete(dir.resolve("records/fleet.gpu.v1.avro"));
    assertThatThrownBy(() -> BundleReader.open(dir)).isInstanceOf(BadBundleException.class)
        .hasMessage("bad bundle file records/fleet.gpu.v1.avro: missing (listed in manifest.json)");
  }

  @Test
  void refusesADirectoryWithoutManifest(@TempDir Path dir) {
    assertThatThrownBy(() -> BundleReader.open(dir)).isInstanceOf(BadBundleException.class)
        .hasMessageStartingWith("bad bundle file manifest.json: missing in ");
  }

  @Test
  void refusesAChecksumMismatchNamingTheFile(@TempDir Path dir) throws Exception {
    writeSample(dir);
    Path labels = dir.resolve("labels.jsonl");
    Files.writeString(labels, "{\"alertname\":\"GpuXid\"}\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> BundleReader.open(dir)).isInstanceOf(BadBundleException.class)
        .hasMessageStartingWith("bad bundle file labels.jsonl: checksum mismatch: sha256 is ");
  }

  @Test
  void refusesASchemaThisVersionCannotRead(@TempDir Path dir) throws Exception {
    writeSample(dir);
    // a GpuXid file whose writer schema lacks the required 'xid': no default, so today's reader cannot fill it
    Schema alien = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"GpuXid\",\"namespace\":\"io.fleetscope.avro\","
        + "\"fields\":[{\"name\":\"ts\",\"type\":\"long\"}]}");
    Path f = dir.resolve("records/" + Topics.GPU_XID + ".avro");
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(alien))) {
      w.create(alien, f.toFile());
      GenericData.Record rec = new GenericData.Record(alien);
      rec.put("ts", 1L);
      w.append(rec);
    }
    String sum = BundleWriter.sha256(f);
    String manifest = Files.readString(dir.resolve(Manifest.FILE));
    Manifest m = Manifest.parse(manifest);
    List<BundleFile> files = new java.util.ArrayList<>(m.files());
    files.add(new BundleFile("records/" + Topics.GPU_XID + ".avro", Topics.GPU_XID, BundleRole.RAW, RecordSource.KAFKA, "node",
        1, Files.size(f), sum, BundleWriter.fingerprint(alien), null));
    Files.writeString(dir.resolve(Manifest.FILE), new Manifest(m.format(), m.fleetscopeVersion(), m.createdAt(), m.from(),
        m.to(), m.scope(), m.incident(), files).toJson());
    assertThat(GpuXid.getClassSchema().getField("xid")).isNotNull();
    assertThatThrownBy(() -> BundleReader.open(dir)).isInstanceOf(BadBundleException.class)
        .hasMessageStartingWith("bad bundle file records/fleet.gpu.xid.v1.avro: unknown schema io.fleetscope.avro.GpuXid");
  }

  @Test
  void refusesAnUnknownTopic(@TempDir Path dir) throws Exception {
    writeSample(dir);
    String manifest = Files.readString(dir.resolve(Manifest.FILE)).replace("\"topic\" : \"fleet.gpu.v1\"",
        "\"topic\" : \"fleet.gpu.v9\"");
    Files.writeString(dir.resolve(Manifest.FILE), manifest);
    assertThatThrownBy(() -> BundleReader.open(dir)).isInstanceOf(BadBundleException.class)
        .hasMessage("bad bundle file records/fleet.gpu.v1.avro: unknown topic 'fleet.gpu.v9'");
  }

  @Test
  void refusesToOverwriteABundle(@TempDir Path dir) throws Exception {
    writeSample(dir);
    assertThatThrownBy(() -> BundleWriter.create(dir, T0, T0.plusSeconds(1), Map.of(), null))
        .hasMessageContaining("already holds a bundle");
  }
}
