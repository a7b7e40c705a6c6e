package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.export.RowDecoder;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.sink.write.TableSpec;
import io.fleetscope.sink.write.TableWriter;
import io.fleetscope.sink.write.Tables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every topic into its table through the real broker and registry, and what happens to bad records. */
class EveryTopicIT {
  static SinkTestEnv env;
  static SinkService sink;
  static final long T0 = 1_780_000_000_000L;

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_every_topic");
    sink = env.startSink(Map.of());
  }

  @AfterAll
  static void tearDown() {
    sink.close();
    env.close();
  }

  @Test
  void everyTableRoundTripsAndDuplicatesChangeNothing() throws Exception {
    Map<String, List<SampleRecords.Keyed>> all = SampleRecords.everyTopic(env.cluster, T0);
    assertThat(all.keySet()).containsExactlyInAnyOrderElementsOf(Topics.all().keySet());
    for (int round = 0; round < 2; round++) {
      for (Map.Entry<String, List<SampleRecords.Keyed>> e : all.entrySet()) {
        for (SampleRecords.Keyed k : e.getValue()) {
          env.send(e.getKey(), k.key(), k.value());
        }
      }
      env.flush();
    }
    SinkTestEnv.await("every table has its row", Duration.ofSeconds(60), SinkTestEnv.sql(() -> {
      for (TableSpec s : Tables.all().values()) {
        if (env.count(s.table()) < 1) {
          return false;
        }
      }
      return true;
    }));
    SinkTestEnv.await("the second round consumed", Duration.ofSeconds(60),
        () -> sink.metrics().records.get() >= 2L * Topics.all().size());
    try (Connection c = env.connect()) {
      for (Map.Entry<String, List<SampleRecords.Keyed>> e : all.entrySet()) {
        TableSpec spec = Tables.forTopic(e.getKey());
        assertThat(env.count(spec.table())).as("rows in " + spec.table()).isEqualTo(1);
        SpecificRecord back = readBack(c, spec.table(), e.getKey());
        assertThat(back).as("round trip of " + e.getKey()).isEqualTo(e.getValue().get(0).value());
        if (spec.hasCurrent()) {
          assertThat(env.count(spec.currentTable())).as("rows in " + spec.currentTable()).isEqualTo(1);
          assertThat(readBack(c, spec.currentTable(), e.getKey())).isEqualTo(e.getValue().get(0).value());
        }
      }
    }
    assertThat(env.countWhere("dead_letters", "stage = 'sink' AND key LIKE '" + env.cluster + "%'")).as("rejects of this test").isZero();
  }

  @Test
  void undecodableAndImpossibleRecordsGoToTheDeadLetterTopicAndTable() throws Exception {
    String other = "other-" + env.cluster; // not counted by the round-trip test
    String node = other + "-bad";
    long rejectedBefore = sink.metrics().rejected.get();
    env.sendRaw(Topics.GPU, node, new byte[] {0, 0, 0, 0x7f, 0x7f, 1, 2}); // unknown schema id
    GpuSample impossible = SampleRecords.gpu(other, node, 0, T0 + 5_000, 1);
    impossible.setGpu(-1);
    GpuSample good = SampleRecords.gpu(other, node, 1, T0 + 5_000, 1);
    env.send(Topics.GPU, node, impossible);
    env.send(Topics.GPU, node, good);
    env.flush();
    SinkTestEnv.await("two rejects", Duration.ofSeconds(60), () -> sink.metrics().rejected.get() >= rejectedBefore + 2);
    SinkTestEnv.await("the good record stored", Duration.ofSeconds(30),
        SinkTestEnv.sql(() -> env.countWhere("gpu", "node = '" + node + "'") == 1));

    List<String> reasons = new ArrayList<>();
    try (Connection c = env.connect(); PreparedStatement p = c.prepareStatement(
        "SELECT reason, stage, source_topic, payload IS NOT NULL FROM dead_letters WHERE key = ? ORDER BY reason")) {
      p.setString(1, node);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          reasons.add(rs.getString(1));
          assertThat(rs.getString(2)).isEqualTo("sink");
          assertThat(rs.getString(3)).isEqualTo(Topics.GPU);
          assertThat(rs.getBoolean(4)).isTrue();
        }
      }
    }
    assertThat(reasons).hasSize(2);
    assertThat(reasons).anySatisfy(r -> assertThat(r).contains("gpu_index_valid"));
    assertThat(reasons).anySatisfy(r -> assertThat(r).contains("unknown schema id"));

    // the same two are on fleet.dlq.v1
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-check-" + env.database);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> keys = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(Topics.DLQ));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (keys.size() < 2 && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
          if (r.key() != null && new String(r.key()).equals(node)) {
            keys.add(new String(r.key()));
          }
        }
      }
    }
    assertThat(keys).hasSize(2);
  }

  @Test
  void aMigInstanceWithoutComputeInstanceIdIsStoredOnceAndBesideItsComputeInstances() throws Exception {
    String node = "other-" + env.cluster + "-mig";
    // dcgm-exporter names the GPU instance only; nvidia-smi names both, two compute instances share GI 2
    GpuMigSample dcgm = GpuMigSample.newBuilder().setTs(T0).setCluster("other-" + env.cluster).setNode(node).setAgentSeq(1)
        .setSource("dcgm-exporter").setGpu(0).setGpuInstanceId(13).setProfile("1g.5gb").setUtilPct(99.569).build();
    GpuMigSample ci0 = GpuMigSample.newBuilder(dcgm).setAgentSeq(2).setSource("nvidia-smi-xml").setGpuInstanceId(2).setComputeInstanceId(0)
        .setProfile("1c.3g.71gb").setUtilPct(null).build();
    GpuMigSample ci1 = GpuMigSample.newBuilder(ci0).setAgentSeq(3).setComputeInstanceId(1).setProfile("2c.3g.71gb").build();
    for (int round = 0; round < 2; round++) {
      for (GpuMigSample m : List.of(dcgm, ci0, ci1)) env.send(Topics.GPU_MIG, node, m);
      env.flush();
    }
    SinkTestEnv.await("the second round consumed", Duration.ofSeconds(60),
        SinkTestEnv.sql(() -> env.countWhere("gpu_mig", "node = '" + node + "' AND agent_seq = 3") == 1));
    env.send(Topics.GPU_MIG, node, GpuMigSample.newBuilder(ci1).setAgentSeq(4).setTs(T0 + 10_000).build());
    env.flush();
    SinkTestEnv.await("a later sample", Duration.ofSeconds(60),
        SinkTestEnv.sql(() -> env.countWhere("gpu_mig", "node = '" + node + "' AND agent_seq = 4") == 1));
    assertThat(env.countWhere("gpu_mig", "node = '" + node + "'")).as("3 devices at T0, each once, and one later sample").isEqualTo(4);
    assertThat(env.countWhere("gpu_mig", "node = '" + node + "' AND compute_instance_id IS NULL")).isEqualTo(1);
  }

  @Test
  void aTombstoneRemovesTheCurrentRowAndKeepsHistory() throws Exception {
    String node = "other-" + env.cluster + "-gone";
    InventoryRecord inv = (InventoryRecord) SampleRecords.everyTopic("other-" + env.cluster, T0).get(Topics.INVENTORY).get(0).value();
    inv.setId(node);
    env.send(Topics.INVENTORY, node, inv);
    env.flush();
    SinkTestEnv.await("current row", Duration.ofSeconds(30),
        SinkTestEnv.sql(() -> env.countWhere("inventory_current", "id = '" + node + "'") == 1));
    env.send(Topics.INVENTORY, node, null);
    env.flush();
    SinkTestEnv.await("current row deleted", Duration.ofSeconds(30),
        SinkTestEnv.sql(() -> env.countWhere("inventory_current", "id = '" + node + "'") == 0));
    assertThat(env.countWhere("inventory_history", "id = '" + node + "'")).isEqualTo(1);
  }

  @Test
  void theReaderRoleCanReadButNotWrite() throws Exception {
    try (Connection c = env.connect(); Statement s = c.createStatement()) {
      s.execute("SET ROLE fleetscope_reader");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM v_gpu_history")) {
        assertThat(rs.next()).isTrue();
      }
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate(
              "DELETE FROM gpu WHERE cluster = 'nobody'"))
          .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
      s.execute("RESET ROLE");
      s.execute("SET ROLE fleetscope_writer");
      assertThat(s.executeUpdate("DELETE FROM gpu WHERE cluster = 'nobody'")).isZero();
    }
  }

  private static SpecificRecord readBack(Connection c, String table, String topic) throws SQLException {
    RowDecoder d = new RowDecoder(Topics.require(topic).schema(), TableWriter.columns(c, table));
    String own = switch (table) {
      case "anomalies", "alerts" -> "fingerprint LIKE ?";
      case "dead_letters" -> "key LIKE ?";
      default -> "cluster LIKE ?";
    };
    try (PreparedStatement p = c.prepareStatement("SELECT " + d.selectList() + " FROM " + table + " WHERE " + own)) {
      p.setString(1, env.cluster + "%");
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).as("a row in " + table).isTrue();
        return d.decode(rs);
      }
    }
  }
}
