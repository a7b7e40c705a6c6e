package io.fleetscope.sink;

import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The real broker, registry and TimescaleDB of TestServices, a fresh database per test class,
 * and helpers to produce records and to wait for the sink. Tests share the broker and the
 * fixed topic names, so each test class writes under its own cluster name and counts only its
 * own rows.
 */
public final class SinkTestEnv {
  public final LocalKafka kafka = TestServices.kafka();
  public final String registryUrl = TestServices.registry().url();
  public final LocalPostgres pg;
  public final String database;
  public final String jdbcUrl;
  public final String cluster;
  private final KafkaProducer<String, SpecificRecord> producer;

  /** On the Apache edition (TestServices.postgres()). */
  public SinkTestEnv(String name) {
    this(name, false);
  }

  /**
   * @param community on TimescaleDB's community edition (TestServices.postgresCommunity(); callers
   *     skip first when {@link TestServices#communityEditionInstalled} is false)
   */
  public SinkTestEnv(String name, boolean community) {
    this.pg = community ? TestServices.postgresCommunity() : TestServices.postgres();
    this.database = name;
    this.cluster = name.replace('_', '-');
    this.jdbcUrl = pg.createDatabase(name);
    for (Topics.TopicSpec t : Topics.all().values()) {
      if (t.compacted()) {
        kafka.createCompactedTopic(t.name(), 3);
      } else {
        kafka.createTopic(t.name(), 3);
      }
    }
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    producer = new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<>(new RestSchemaRegistryClient(registryUrl)));
  }

  public SinkConfig config(Map<String, String> extra) {
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    m.put(SinkConfig.KAFKA.name(), kafka.bootstrapServers());
    m.put(SinkConfig.REGISTRY.name(), registryUrl);
    m.put(SinkConfig.JDBC_URL.name(), jdbcUrl);
    m.put(SinkConfig.JDBC_USER.name(), LocalPostgres.SUPERUSER);
    m.put(SinkConfig.GROUP_ID.name(), "sink-" + database);
    m.put(SinkConfig.RETRY_INITIAL.name(), "100");
    m.put(SinkConfig.RETRY_MAX.name(), "1000");
    m.put(SinkConfig.ROLLUP_INTERVAL.name(), "0");
    m.put(SinkConfig.RETENTION_INTERVAL.name(), "0");
    m.put(SinkConfig.METRICS_PORT.name(), "0"); // a free port: the local stack's sink may hold 18084
    m.putAll(extra);
    return SinkConfig.of(m);
  }

  public SinkService startSink(Map<String, String> extra) throws Exception {
    SinkService s = new SinkService(config(extra));
    s.start();
    return s;
  }

  public Database database() {
    return new Database(jdbcUrl, LocalPostgres.SUPERUSER, "", "");
  }

  public Connection connect() throws SQLException {
    return database().open();
  }

  public void send(String topic, String key, SpecificRecord value) {
    producer.send(new ProducerRecord<>(topic, key, value));
  }

  public void sendRaw(String topic, String key, byte[] value) {
    // the Avro serializer would refuse these bytes: a second producer sends them as they are
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(p, new StringSerializer(),
        new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      raw.send(new ProducerRecord<>(topic, key, value));
      raw.flush();
    }
  }

  public void flush() {
    producer.flush();
  }

  /** Rows of this test's cluster in a table. */
  public long count(String table) throws SQLException {
    return count(table, null);
  }

  public long count(String table, String extraWhere) throws SQLException {
    String own = switch (table) {
      case "anomalies", "alerts" -> "fingerprint LIKE ?";
      case "dead_letters" -> "key LIKE ?";
      default -> "cluster LIKE ?";
    };
    String sql = "SELECT count(*) FROM " + table + " WHERE " + own + (extraWhere == null ? "" : " AND " + extraWhere);
    try (Connection c = connect(); PreparedStatement p = c.prepareStatement(sql)) {
      p.setString(1, cluster + "%");
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Rows matching a condition, whatever their cluster. */
  public long countWhere(String table, String where) throws SQLException {
    try (Connection c = connect(); java.sql.Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table + " WHERE " + where)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Waits (polling the condition, up to the timeout) for something the sink does asynchronously. */
  public static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  /** A condition that may throw SQLException. */
  public interface SqlCondition {
    boolean test() throws SQLException;
  }

  public static BooleanSupplier sql(SqlCondition c) {
    return () -> {
      try {
        return c.test();
      } catch (SQLException e) {
        return false;
      }
    };
  }

  public void close() {
    producer.close();
  }

  public static List<String> rawTopics() {
    return List.of(Topics.GPU, Topics.IB);
  }
}
