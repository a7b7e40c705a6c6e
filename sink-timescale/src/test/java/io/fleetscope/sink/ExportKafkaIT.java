package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleFile;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.RecordSource;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.stack.services.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export} on the real broker, registry and TimescaleDB: a set of prefixed topics (as
 * {@code replay --prefix} writes them) holds GPU samples, inventory, anomalies, incident versions and
 * a dead letter; the PDU topic's records are deleted (deleteRecords), so Kafka no longer has its
 * range's start and its readings come from the database. The database holds different GPU samples,
 * so a GPU record in the bundle shows where it came from. Episodes are followed past the range's end
 * from Kafka and from the database alike.
 */
class ExportKafkaIT {
  /** Recent, so that the broker's time retention (7 days) keeps the records and an hour past it is not refused as future. */
  static final Instant T = Instant.now().minusSeconds(900).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  static final Instant TO = T.plusSeconds(10);
  static final String PREFIX = "export-kafka-it-" + System.nanoTime() + ".";
  static SinkTestEnv env;
  static final List<GpuSample> gpuInRange = new ArrayList<>();
  static final List<PduReading> pduInRange = new ArrayList<>();
  static int gpuSchemaId;
  static Anomaly ecc;
  static Anomaly eccResolvedAfterRange;
  static Alert v1;
  static Alert v2AfterRange;
  static DeadLetter dead;

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_export_kafka");
    String cluster = env.cluster;
    for (Topics.TopicSpec t : Topics.all().values()) {
      if (t.compacted()) {
        env.kafka.createCompactedTopic(PREFIX + t.name(), 3);
      } else {
        env.kafka.createTopic(PREFIX + t.name(), 3);
      }
    }
    RestSchemaRegistryClient registry = new RestSchemaRegistryClient(env.registryUrl);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    List<GpuSample> gpuInDb = new ArrayList<>();
    List<PduReading> pdu = new ArrayList<>();
    try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<>(registry))) {
      // GPU samples from 20 s before to 20 s after the range; the event time is the record's timestamp (as the simulator sends)
      for (int s = -20; s < 30; s++) {
        for (String node : new String[] {"n1", "n2"}) {
          GpuSample g = SampleRecords.gpu(cluster, node, 0, T.plusSeconds(s).toEpochMilli(), s + 20);
          send(producer, Topics.GPU, node, g);
          if (s >= 0 && s < 10) {
            gpuInRange.add(g);
            if (node.equals("n1")) {
              gpuInDb.add(g);
            }
          }
        }
      }
      for (int s = -5; s < 15; s++) {
        PduReading r = PduReading.newBuilder().setTs(T.plusSeconds(s).toEpochMilli()).setCluster(cluster).setDevice("pdu1")
            .setAgentSeq(s + 5).setOutlet("A1").setPowerW(900.0 + s).build();
        send(producer, Topics.PDU, "pdu1", r);
        pdu.add(r);
        if (s >= 0 && s < 10) {
          pduInRange.add(r);
        }
      }
      send(producer, Topics.INVENTORY, "n1", InventoryRecord.newBuilder().setTs(T.minusSeconds(3600).toEpochMilli()).setCluster(cluster)
          .setKind("node").setId("n1").setRack("R1").build());
      send(producer, Topics.INVENTORY, "n1", InventoryRecord.newBuilder().setTs(T.minusSeconds(60).toEpochMilli()).setCluster(cluster)
          .setKind("node").setId("n1").setRack("R2").build());
      send(producer, Topics.INVENTORY, "n1", InventoryRecord.newBuilder().setTs(T.plusSeconds(5).toEpochMilli()).setCluster(cluster)
          .setKind("node").setId("n1").setRack("R3").build());
      send(producer, Topics.INVENTORY, "n1", InventoryRecord.newBuilder().setTs(TO.plusSeconds(5).toEpochMilli()).setCluster(cluster)
          .setKind("node").setId("n1").setRack("R4").build());
      long start = T.plusSeconds(2).toEpochMilli();
      ecc = Anomaly.newBuilder().setTs(start).setFingerprint("an-ecc").setStatus("firing")
          .setLabels(Map.of("alertname", "GpuEccUncorrectable", "cluster", cluster, "node", "n1", "gpu", "0", "severity", "critical"))
          .setAnnotations(Map.of()).setStartsAt(start).setSource("ecc").build();
      // resolved an hour later (the analytics hold a DBE that long): after the range, in the same episode
      long end = T.plusSeconds(3600).toEpochMilli();
      eccResolvedAfterRange = Anomaly.newBuilder(ecc).setTs(end).setStatus("resolved").setEndsAt(end).build();
      Anomaly later = Anomaly.newBuilder(ecc).setFingerprint("an-later").setTs(TO.plusSeconds(1).toEpochMilli())
          .setStartsAt(TO.plusSeconds(1).toEpochMilli()).build();
      v1 = Alert.newBuilder().setTs(start).setFingerprint("inc-ecc").setStatus("firing").setLabels(ecc.getLabels())
          .setAnnotations(Map.of()).setStartsAt(start).setMembers(List.of("an-ecc")).setVersion(1L).build();
      v2AfterRange = Alert.newBuilder(v1).setTs(end + 70_000).setStatus("resolved").setEndsAt(end).setVersion(2L).build();
      for (SpecificRecord r : List.of(ecc, eccResolvedAfterRange, later)) {
        send(producer, Topics.ANOMALIES, ((Anomaly) r).getFingerprint(), r);
      }
      send(producer, Topics.ALERTS, "inc-ecc", v1);
      send(producer, Topics.ALERTS, "inc-ecc", v2AfterRange);
      dead = DeadLetter.newBuilder().setTs(T.plusSeconds(3).toEpochMilli()).setStage("flink-jobs").setReason("temp_c out of range")
          .setSourceTopic(Topics.GPU).setPartition(1).setOffset(7L).setKey("n1").build();
      send(producer, Topics.DLQ, "n1", dead);
      producer.flush();
    }
    gpuSchemaId = registry.register(PREFIX + Topics.GPU + "-value", Topics.require(Topics.GPU).schema());
    // Kafka no longer has the PDU topic's range: every record deleted
    try (Admin admin = env.kafka.admin()) {
      Map<TopicPartition, RecordsToDelete> del = new HashMap<>();
      for (int part = 0; part < 3; part++) {
        del.put(new TopicPartition(PREFIX + Topics.PDU, part), RecordsToDelete.beforeOffset(-1L)); // -1: the high watermark
      }
      admin.deleteRecords(del).all().get();
    }
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      DirectWriter.write(c, Topics.GPU, gpuInDb);
      DirectWriter.write(c, Topics.PDU, pdu);
      DirectWriter.write(c, Topics.ANOMALIES, List.of(ecc, eccResolvedAfterRange));
      DirectWriter.write(c, Topics.ALERTS, List.of(v1, v2AfterRange));
      DirectWriter.write(c, Topics.DLQ, List.of(dead));
    }
  }

  private static void send(KafkaProducer<String, SpecificRecord> p, String topic, String key, SpecificRecord v) {
    long ts = (Long) v.get(v.getSchema().getField("ts").pos());
    p.send(new ProducerRecord<>(PREFIX + topic, null, ts, key, v));
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void readsKafkaWhileRetainedAndTheDatabaseWhereKafkaLostTheRange(@TempDir Path dir) {
    String out = export(dir, "--prefix", PREFIX);
    BundleReader bundle = BundleReader.open(dir);
    assertThat(file(bundle, Topics.GPU).source()).isEqualTo(RecordSource.KAFKA);
    assertThat(file(bundle, Topics.GPU).schemaId()).isEqualTo(gpuSchemaId);
    assertThat(file(bundle, Topics.GPU).writerSchemaIds()).containsExactly(gpuSchemaId);
    assertThat(values(bundle, Topics.GPU)).containsExactlyInAnyOrderElementsOf(gpuInRange);
    assertThat(out).contains("export topic=fleet.gpu.v1 role=raw source=kafka records=20 kafka_topic=" + PREFIX + Topics.GPU
        + " partitions=3 schema_ids=[" + gpuSchemaId + "]");

    assertThat(file(bundle, Topics.PDU).source()).isEqualTo(RecordSource.TIMESCALEDB);
    assertThat(values(bundle, Topics.PDU)).containsExactlyElementsOf(pduInRange);
    assertThat(out).containsPattern("export topic=fleet.pdu.v1 role=raw source=timescaledb records=10 kafka=\"partition \\d: ");

    // state as of the start (R2, the newest before it), then the change inside the range (R3); not R1 (superseded) nor R4 (after)
    assertThat(file(bundle, Topics.INVENTORY).source()).isEqualTo(RecordSource.KAFKA);
    assertThat(values(bundle, Topics.INVENTORY)).extracting(r -> ((InventoryRecord) r).getRack()).containsExactly("R2", "R3");

    // the episode that started in the range is followed to its resolution an hour later; the one after the range is not in it
    assertThat(file(bundle, Topics.ANOMALIES).source()).isEqualTo(RecordSource.KAFKA);
    assertThat(values(bundle, Topics.ANOMALIES)).containsExactly(ecc, eccResolvedAfterRange);
    assertThat(values(bundle, Topics.ALERTS)).containsExactly(v1, v2AfterRange);

    assertThat(file(bundle, Topics.DLQ).role()).isEqualTo(BundleRole.DEAD_LETTERS);
    assertThat(file(bundle, Topics.DLQ).source()).isEqualTo(RecordSource.KAFKA);
    assertThat(values(bundle, Topics.DLQ)).containsExactly(dead);
    assertThat(file(bundle, Topics.DLQ).records()).isEqualTo(1);
  }

  @Test
  void readsTheDatabaseOnlyWhenAsked(@TempDir Path dir) {
    String out = export(dir, "--prefix", PREFIX, "--source", "timescaledb");
    assertThat(out).contains("export source=timescaledb reason=\"--source timescaledb\"");
    BundleReader bundle = BundleReader.open(dir);
    assertThat(bundle.manifest().files()).allSatisfy(f -> assertThat(f.source()).isEqualTo(RecordSource.TIMESCALEDB));
    assertThat(values(bundle, Topics.GPU)).hasSize(10).allSatisfy(r -> assertThat(((GpuSample) r).getNode()).isEqualTo("n1"));
    assertThat(values(bundle, Topics.ANOMALIES)).containsExactly(ecc, eccResolvedAfterRange);
    assertThat(values(bundle, Topics.ALERTS)).containsExactly(v1, v2AfterRange);
    assertThat(values(bundle, Topics.DLQ)).containsExactly(dead);
  }

  private static String export(Path dir, String... extra) {
    List<String> args = new ArrayList<>(List.of("--from", T.toString(), "--to", TO.toString(), "--where", "cluster=" + env.cluster,
        "--out", dir.toString(), "--kafka", env.kafka.bootstrapServers(), "--registry", env.registryUrl));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ExportMain.run(args.toArray(String[]::new), Map.of("FLEETSCOPE_JDBC_URL", env.jdbcUrl, "FLEETSCOPE_JDBC_USER",
        LocalPostgres.SUPERUSER), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isZero();
    System.out.print(text);
    return text;
  }

  private static BundleFile file(BundleReader bundle, String topic) {
    return bundle.manifest().files().stream().filter(f -> topic.equals(f.topic())).findFirst().orElseThrow();
  }

  private static List<Object> values(BundleReader bundle, String topic) {
    return new ArrayList<>(bundle.records(file(bundle, topic)));
  }
}
