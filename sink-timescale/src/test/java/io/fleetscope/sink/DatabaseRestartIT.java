package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.service.SinkService;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The database restarts while the sink is writing: every record is stored once, none is lost. */
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

  private static void sendSecond(int nodes, int s) {
    for (int n = 0; n < nodes; n++) {
      String node = env.cluster + "-node-" + n;
      for (int g = 0; g < 8; g++) {
        env.send(Topics.GPU, node, SampleRecords.gpu(env.cluster, node, g, T0 + s * 1000L, s));
      }
    }
  }
}
