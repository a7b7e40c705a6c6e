package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.service.SinkService;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database restarts while the sink is writing: every record is stored once, none is lost. A
 * write blocked on a lock times out and is retried; dead letters the broker will not take hold the
 * batch's offsets until it does.
 */
class DatabaseRestartIT {
  static SinkTestEnv env;
  static final long T0 = 1_780_000_000_000L;

  @BeforeAll
  static void setUp() {
    env = new SinkTestEnv("sink_db_restart");
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void aRestartDuringWritingLosesNothing() throws Exception {
    int nodes = 10;
    int seconds = 200; // 16,000 GPU rows
    long expected = (long) nodes * seconds * 8;
    try (SinkService sink = env.startSink(Map.of(SinkConfig.MAX_POLL_RECORDS.name(), "500"))) {
      for (int s = 0; s < seconds / 2; s++) {
        sendSecond(nodes, s);
      }
      env.flush();
      SinkTestEnv.await("the sink is writing", Duration.ofSeconds(60), SinkTestEnv.sql(() -> env.count("gpu") > 0));
      long retriesBefore = sink.metrics().dbRetries.get();
      env.pg.restart();
      for (int s = seconds / 2; s < seconds; s++) {
        sendSecond(nodes, s);
      }
      env.flush();
      SinkTestEnv.await("every row stored", Duration.ofSeconds(120), SinkTestEnv.sql(() -> env.count("gpu") == expected));
      SinkTestEnv.await("every record consumed", Duration.ofSeconds(60),
          () -> sink.metrics().records.get() >= expected);
      assertThat(env.count("gpu")).isEqualTo(expected);
      assertThat(env.countWhere("dead_letters", "key LIKE '" + env.cluster + "%'")).as("dead letters of this test").isZero();
      // the restart was seen (the test is meaningless if the sink finished before it)
      assertThat(sink.metrics().dbRetries.get()).isGreaterThan(retriesBefore);
    }
  }

  @Test
  void aWriteBlockedOnALockTimesOutIsRetriedAndStoresEverything() throws Exception {
    long expected = 5 * 8;
    try (SinkService sink = env.startSink(Map.of(SinkConfig.LOCK_TIMEOUT.name(), "500"));
         Connection holder = env.connect()) {
      holder.setAutoCommit(false);
      try (Statement st = holder.createStatement()) {
        st.execute("LOCK TABLE gpu_raw IN ACCESS EXCLUSIVE MODE");   // as chunk creation or compression may hold it
      }
      long retriesBefore = sink.metrics().dbRetries.get();
      for (int n = 0; n < 5; n++) {
        String node = env.cluster + "-lock-" + n;
        for (int g = 0; g < 8; g++) {
          env.send(Topics.GPU, node, SampleRecords.gpu(env.cluster, node, g, T0, 1));
        }
      }
      env.flush();
      SinkTestEnv.await("the blocked write timed out and was retried", Duration.ofSeconds(60),
          () -> sink.metrics().dbRetries.get() >= retriesBefore + 2);
      holder.rollback();
      SinkTestEnv.await("every row stored once the lock is gone", Duration.ofSeconds(60),
          SinkTestEnv.sql(() -> env.count("gpu", "node LIKE '%-lock-%'") == expected));
    }
  }

  @Test
  void deadLettersTheBrokerDoesNotTakeHoldTheOffsetsUntilItDoes() throws Exception {
    String dlq = "fleet.dlq.it-" + env.database;
    Properties ap = new Properties();
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka.bootstrapServers());
    try (Admin admin = Admin.create(ap)) {
      // the broker refuses every dead letter (larger than the topic allows) until this changes
      admin.createTopics(List.of(new NewTopic(dlq, 1, (short) 1).configs(Map.of("max.message.bytes", "64")))).all().get();
      try (SinkService sink = env.startSink(Map.of(SinkConfig.DLQ_TOPIC.name(), dlq, SinkConfig.DLQ_TIMEOUT.name(), "1000",
          SinkConfig.RETRY_MAX.name(), "500"))) {
        long batchesBefore = sink.metrics().batches.get();
        env.sendRaw(Topics.GPU, "dlq-held-1", new byte[] {1, 2, 3});
        SinkTestEnv.await("the publish failed and was retried", Duration.ofSeconds(60),
            () -> sink.metrics().dlqRetries.get() >= 2);
        assertThat(sink.metrics().batches.get()).as("offsets not committed while the dead letter is not published").isEqualTo(batchesBefore);
        assertThat(env.countWhere("dead_letters", "key = 'dlq-held-1'")).as("the dead_letters row is stored").isPositive();
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, dlq);
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "1048588"),
            AlterConfigOp.OpType.SET)))).all().get();
        SinkTestEnv.await("the batch committed once the broker takes the dead letter", Duration.ofSeconds(60),
            () -> sink.metrics().batches.get() > batchesBefore);
        TopicPartition tp = new TopicPartition(dlq, 0);
        assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get().get(tp).offset()).as("dead letters on the topic").isPositive();
      }
    }
  }

  private static void sendSecond(int nodes, int s) {
    for (int n = 0; n < nodes; n++) {
      String node = env.cluster + "-node-" + n;
      for (int g = 0; g < 8; g++) {
        env.send(Topics.GPU, node, SampleRecords.gpu(env.cluster, node, g, T0 + s * 1000L, s));
      }
    }
  }
}
