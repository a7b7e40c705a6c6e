package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.service.SinkService;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 2's first end-to-end path: fleet.gpu.v1 and fleet.ib.v1 through the real broker and
 * registry into TimescaleDB: every record exactly once, also after the same records are sent twice.
 */
class GpuIbEndToEndIT {
  static SinkTestEnv env;
  static final long T0 = 1_780_000_000_000L; // 2026-05-28, fixed

  @BeforeAll
  static void setUp() {
    env = new SinkTestEnv("sink_e2e_gpu_ib");
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"staging", "direct-first"})
  void everyRecordOnceAlsoWhenSentTwice(String mode) throws Exception {
    String cluster = env.cluster + "-" + mode;
    String own = "cluster = '" + cluster + "'";
    int nodes = 4;
    int seconds = 30;
    List<Object[]> sent = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      for (int n = 0; n < nodes; n++) {
        String node = cluster + "-node-" + n;
        for (int g = 0; g < 8; g++) {
          sent.add(new Object[] {Topics.GPU, node, SampleRecords.gpu(cluster, node, g, T0 + s * 1000L, s)});
        }
        for (int p = 0; p < 4; p++) {
          sent.add(new Object[] {Topics.IB, node, SampleRecords.ib(cluster, node, p, T0 + s * 1000L, s)});
        }
      }
    }
    long gpuRows = (long) nodes * seconds * 8;
    long ibRows = (long) nodes * seconds * 4;
    try (SinkService sink = env.startSink(Map.of(SinkConfig.COPY_MODE.name(), mode,
        SinkConfig.GROUP_ID.name(), "sink-e2e-" + mode))) {
      for (Object[] r : sent) {
        env.send((String) r[0], (String) r[1], (SpecificRecord) r[2]);
      }
      env.flush();
      SinkTestEnv.await("all rows stored", Duration.ofSeconds(60),
          SinkTestEnv.sql(() -> env.countWhere("gpu", own) == gpuRows && env.countWhere("ib", own) == ibRows));

      long before = sink.metrics().records.get();
      for (Object[] r : sent) {
        env.send((String) r[0], (String) r[1], (SpecificRecord) r[2]);
      }
      env.flush();
      SinkTestEnv.await("the duplicates consumed", Duration.ofSeconds(60),
          () -> sink.metrics().records.get() >= before + sent.size());
      assertThat(env.countWhere("gpu", own)).isEqualTo(gpuRows);
      assertThat(env.countWhere("ib", own)).isEqualTo(ibRows);
      assertThat(env.countWhere("dead_letters", "key LIKE '" + cluster + "%'")).as("dead letters of this test").isZero();
      var paths = sink.metrics().paths;
      if (mode.equals("staging")) {
        assertThat(paths.direct.get()).as("direct COPYs in staging mode").isZero();
      } else {
        // the group reads the topics from the start, so rows stored by the other case come first: which
        // batches then find only new rows depends on the batching (CopyModesIT checks that batch by batch)
        assertThat(paths.fallbacks.get()).as("direct COPYs of stored rows went the staging path").isPositive();
      }
    }
    try (Connection c = env.connect(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT node, gpu, ts FROM gpu WHERE cluster = '" + cluster
             + "' GROUP BY 1, 2, 3 HAVING count(*) > 1) d")) {
      rs.next();
      assertThat(rs.getLong(1)).as("duplicate (node, gpu, ts)").isZero();
    }
  }
}
