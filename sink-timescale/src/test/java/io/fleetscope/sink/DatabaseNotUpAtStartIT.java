package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.StartWait;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sink starts before PostgreSQL listens: it waits, then migrates, runs and stores records. A
 * database that does not exist fails the start at once.
 */
class DatabaseNotUpAtStartIT {
  static SinkTestEnv env;
  /**
   * Recent samples: the sink installs the community edition's retention policies (raw data 14 days),
   * and a policy run while the test counts drops an older chunk, rows and all: the rows stored then
   * vanished (the "stall" of earlier CI runs: the sink had inserted every row).
   */
  static final long T0 = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).minusSeconds(3600).toEpochMilli();

  @BeforeAll
  static void setUp() {
    env = new SinkTestEnv("sink_not_up_at_start");
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void theSinkWaitsForAPostgresThatIsNotListeningYet() throws Exception {
    Path dir = Files.createTempDirectory("fleetscope-sink-late-pg-");
    // PostgreSQL runs as the postgres user when we are root: it must reach its data dir
    dir.toFile().setExecutable(true, false);
    dir.toFile().setReadable(true, false);
    int port = FreePorts.pick();
    LocalPostgres.Config pgConfig = new LocalPostgres.Config(dir, port, Path.of(LocalPostgres.DEFAULT_BIN), true, null);
    String jdbc = "jdbc:postgresql://127.0.0.1:" + port + "/" + LocalPostgres.APP_ROLE;
    // the cluster, its database and roles exist before the sink starts (as they do when a server
    // restarts): a first start listens before it has created them, and a sink that connects in
    // that moment is refused for good (role or database missing), which is not what this tests
    LocalPostgres.start(pgConfig).close();
    String group = "sink-not-up-at-start-late";
    // the shared broker holds every earlier IT's records; this test is about the wait, so its sink
    // starts at the end of every topic and reads only the records sent below
    startGroupAtTheEnd(group);
    SinkService sink = new SinkService(env.config(Map.of(SinkConfig.JDBC_URL.name(), jdbc,
        SinkConfig.START_WAIT.name(), "120", SinkConfig.GROUP_ID.name(), group)));
    LocalPostgres pg = null;
    try {
      long t0 = System.nanoTime();
      CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
        try {
          sink.start();
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      Thread.sleep(2_000);
      assertThat(started).as("the sink waits while nothing listens on the port").isNotDone();
      pg = LocalPostgres.start(pgConfig);
      started.get(60, TimeUnit.SECONDS);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isGreaterThanOrEqualTo(2_000);

      int rows = 0;
      for (int s = 0; s < 5; s++) {
        String node = env.cluster + "-node-0";
        for (int g = 0; g < 8; g++) {
          env.send(Topics.GPU, node, SampleRecords.gpu(env.cluster, node, g, T0 + s * 1000L, s));
          rows++;
        }
      }
      env.flush();
      LocalPostgres late = pg;
      long expected = rows;
      SinkTestEnv.await("the records stored in the late database", Duration.ofSeconds(60),
          SinkTestEnv.sql(() -> gpuRows(late) == expected));
    } finally {
      sink.close();
      if (pg != null) {
        pg.close();
      }
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void aDatabaseThatDoesNotExistFailsAtOnce() {
    String jdbc = env.pg.jdbcUrl("no_such_database_sink_start");
    SinkService sink = new SinkService(env.config(Map.of(SinkConfig.JDBC_URL.name(), jdbc,
        SinkConfig.START_WAIT.name(), "30")));
    long t0 = System.nanoTime();
    assertThatThrownBy(sink::start)
        .isInstanceOf(StartWait.StartFailed.class)
        .hasMessageContaining("not retried")
        .hasMessageContaining("sqlstate=3D000")
        .hasMessageContaining("no_such_database_sink_start");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("no waiting").isLessThan(5_000);
    sink.close();
  }

  /** Commits {@code group}'s offsets at the end of every partition of the sink's topics. */
  private static void startGroupAtTheEnd(String group) {
    try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
        Map.of(org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka.bootstrapServers(),
            org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG, group,
            org.apache.kafka.clients.consumer.ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
        new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      java.util.List<org.apache.kafka.common.TopicPartition> parts = new java.util.ArrayList<>();
      for (String t : Topics.all().keySet()) {
        var infos = c.partitionsFor(t);
        if (infos != null) {
          infos.forEach(i -> parts.add(new org.apache.kafka.common.TopicPartition(t, i.partition())));
        }
      }
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> ends = new java.util.HashMap<>();
      c.endOffsets(parts).forEach((tp, off) -> ends.put(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(off)));
      c.commitSync(ends);
    }
  }

  private static long gpuRows(LocalPostgres pg) throws java.sql.SQLException {
    try (Connection c = pg.connect(LocalPostgres.APP_ROLE);
         PreparedStatement p = c.prepareStatement("SELECT count(*) FROM gpu WHERE cluster = ?")) {
      p.setString(1, env.cluster);
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
