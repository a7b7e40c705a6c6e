package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.RetentionJob;
import io.fleetscope.sink.maintenance.RollupMaintainer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retention (drop_chunks on the Apache edition) and the incremental rollups, on the real TimescaleDB. */
class MaintenanceIT {
  static SinkTestEnv env;
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_maintenance");
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      assertThat(Migrator.migrate(c)).as("a second run applies nothing").isEmpty();
      try (Statement s = c.createStatement()) {
        s.execute("SET ROLE fleetscope_writer"); // a writer without DDL rights starts on a migrated database
        assertThat(Migrator.migrate(c)).isEmpty();
        s.execute("RESET ROLE");
      }
    }
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  @Test
  void retentionRemovesOnlyWhatIsOlderThanItsWindow() throws Exception {
    String cl = env.cluster + "-ret";
    List<GpuSample> gpu = new ArrayList<>();
    for (int days : new int[] {20, 15, 13, 0}) {
      gpu.add(SampleRecords.gpu(cl, cl + "-n", 0, NOW.minus(Duration.ofDays(days)).toEpochMilli(), days));
    }
    GpuXid oldXid = GpuXid.newBuilder().setTs(NOW.minus(Duration.ofDays(20)).toEpochMilli()).setCluster(cl)
        .setNode(cl + "-n").setAgentSeq(1).setXid(79).setMessage("fell off the bus").build();
    Alert oldAlert = Alert.newBuilder().setTs(NOW.minus(Duration.ofDays(900)).toEpochMilli()).setFingerprint(cl + "-a")
        .setStatus("resolved").setLabels(Map.of("alertname", "GpuXid")).setStartsAt(0).setVersion(1L).build();
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.GPU, gpu);
      DirectWriter.write(c, Topics.GPU_XID, List.of(oldXid));
      DirectWriter.write(c, Topics.ALERTS, List.of(oldAlert));
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO gpu_rollup_1h (bucket, cluster, node, gpu, samples, throttled_samples, "
            + "thermal_throttled_samples, throttle_minutes, thermal_throttle_minutes, ecc_sbe_increase, ecc_dbe_increase) VALUES "
            + "(timestamptz '" + NOW + "' - interval '440 days', '" + cl + "', '" + cl + "-n', 0, 1, 0, 0, 0, 0, 0, 0), "
            + "(timestamptz '" + NOW + "' - interval '399 days', '" + cl + "', '" + cl + "-n', 0, 1, 0, 0, 0, 0, 0, 0)");
      }
      // drop_chunks removes whole chunks only: 440 days is older than the window by more than one 30-day chunk
      Map<String, Integer> dropped;
      try (Statement s = c.createStatement()) {
        s.execute("SET ROLE fleetscope_writer"); // the writer owns no table: retention goes through fleetscope_drop_chunks
        dropped = new RetentionJob(env.config(Map.of())).dropExpired(c, NOW);
        s.execute("RESET ROLE");
      }
      assertThat(dropped.get("gpu_raw")).isEqualTo(2);
      assertThat(dropped.get("gpu_rollup_1h")).isEqualTo(1);
      assertThat(dropped).doesNotContainKey("alerts");

      assertThat(days(c, "SELECT round(extract(epoch FROM timestamptz '" + NOW + "' - ts) / 86400) FROM gpu WHERE cluster = '"
          + cl + "' ORDER BY ts")).containsExactly(13L, 0L);
      assertThat(days(c, "SELECT round(extract(epoch FROM timestamptz '" + NOW + "' - bucket) / 86400) FROM gpu_rollup_1h "
          + "WHERE cluster = '" + cl + "'")).containsExactly(399L);
      assertThat(env.countWhere("gpu_xid", "cluster = '" + cl + "'")).as("events are kept 400 days").isEqualTo(1);
      assertThat(env.countWhere("alerts", "fingerprint = '" + cl + "-a'")).as("alerts are kept").isEqualTo(1);
    }
  }

  @Test
  void rollupsAreExactAndFollowLateRecords() throws Exception {
    String cl = env.cluster + "-roll";
    String node = cl + "-n";
    Instant h = Instant.parse("2026-05-31T10:00:00Z");
    List<GpuSample> samples = new ArrayList<>();
    for (int s = 0; s < 180; s++) {
      GpuSample g = SampleRecords.gpu(cl, node, 2, h.plusSeconds(s).toEpochMilli(), s);
      g.setTempC(50.0 + s / 60); // 50, 51, 52 per minute
      g.setThrottleReasons(s >= 60 && s < 90 ? 0x40L : 0L); // HW thermal for the first half of minute 1
      // SBE counter: +1 every 10 s in minutes 0-1, then the driver reloads (reset to 0) and counts +1 per 20 s
      g.setEccSbeTotal(s < 120 ? (long) (s / 10) : (long) ((s - 120) / 20));
      g.setRowRemapPending(s == 150);
      samples.add(g);
    }
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.GPU, samples);
      new RollupMaintainer().refresh(c);
      List<List<Object>> m = rows(c, "SELECT samples, temp_c_avg, throttle_minutes, thermal_throttle_minutes, ecc_sbe_increase, "
          + "row_remap_pending_any FROM gpu_rollup_1m WHERE node = '" + node + "' ORDER BY bucket");
      assertThat(m).containsExactly(
          List.of(60L, 50.0, 0.0, 0.0, 5L, false),
          List.of(60L, 51.0, 0.5, 0.5, 6L, false),
          // reset at s=120 counts from zero (value 0); then +1 at 140 and 160
          List.of(60L, 52.0, 0.0, 0.0, 2L, true));
      List<List<Object>> hr = rows(c, "SELECT samples, temp_c_avg, thermal_throttle_minutes, ecc_sbe_increase FROM gpu_rollup_1h "
          + "WHERE node = '" + node + "'");
      assertThat(hr).containsExactly(List.of(180L, 51.0, 0.5, 13L));

      // a late sample inside minute 0 (the 1 Hz grid + 500 ms) invalidates and re-computes that minute and hour
      GpuSample late = SampleRecords.gpu(cl, node, 2, h.plusMillis(30_500).toEpochMilli(), 999);
      late.setTempC(111.0);
      late.setEccSbeTotal(3L);
      late.setThrottleReasons(0L);
      DirectWriter.write(c, Topics.GPU, List.of(late));
      new RollupMaintainer().refresh(c);
      assertThat(rows(c, "SELECT samples, temp_c_max FROM gpu_rollup_1m WHERE node = '" + node + "' ORDER BY bucket LIMIT 1"))
          .containsExactly(List.of(61L, 111.0));
      assertThat(rows(c, "SELECT samples FROM gpu_rollup_1h WHERE node = '" + node + "'")).containsExactly(List.of(181L));
      assertThat(env.countWhere("rollup_invalidations", "true")).as("invalidations consumed").isZero();
    }
  }

  @Test
  void aMinuteRefreshedOnItsOwnTakesItsFirstDeltaFromThePreviousSample() throws Exception {
    String cl = env.cluster + "-incr";
    String node = cl + "-n";
    Instant h = Instant.parse("2026-05-31T12:00:00Z");
    try (Connection c = env.connect()) {
      for (int minute = 0; minute < 3; minute++) { // written and refreshed one minute at a time, as live
        List<GpuSample> samples = new ArrayList<>();
        for (int s = minute * 60; s < minute * 60 + 60; s++) {
          GpuSample g = SampleRecords.gpu(cl, node, 0, h.plusSeconds(s).toEpochMilli(), s);
          g.setEccSbeTotal((long) (s / 10)); // +1 every 10 s, also from second 59 to 60 and 119 to 120
          samples.add(g);
        }
        DirectWriter.write(c, Topics.GPU, samples);
        new RollupMaintainer().refresh(c);
      }
      // minute 0 has no earlier sample (its first delta counts 0): 5; minutes 1 and 2 reach back: 6 each
      assertThat(rows(c, "SELECT samples, ecc_sbe_increase FROM gpu_rollup_1m WHERE node = '" + node + "' ORDER BY bucket"))
          .containsExactly(List.of(60L, 5L), List.of(60L, 6L), List.of(60L, 6L));
      assertThat(rows(c, "SELECT samples, ecc_sbe_increase FROM gpu_rollup_1h WHERE node = '" + node + "'"))
          .containsExactly(List.of(180L, 17L));
    }
  }

  @Test
  void aLiveMinuteIsHeldBackUntilItIsComplete() throws Exception {
    String cl = env.cluster + "-live";
    String node = cl + "-n";
    Instant newest = Instant.now().minusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    Instant open = newest.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
    try (Connection c = env.connect()) {
      List<GpuSample> samples = new ArrayList<>();
      for (Instant t = open.minusSeconds(60); !t.isAfter(newest); t = t.plusSeconds(1)) {
        samples.add(SampleRecords.gpu(cl, node, 0, t.toEpochMilli(), 1));
      }
      DirectWriter.write(c, Topics.GPU, samples);
      new RollupMaintainer().refresh(c);
      assertThat(rows(c, "SELECT extract(epoch FROM bucket)::bigint, samples FROM gpu_rollup_1m WHERE node = '" + node + "'"))
          .as("the complete minute only").containsExactly(List.of(open.getEpochSecond() - 60, 60L));
      assertThat(env.countWhere("rollup_invalidations", "source = 'gpu' AND from_ts = '" + open + "'"))
          .as("the open minute stays logged for a later run").isEqualTo(1);
    }
  }

  @Test
  void aLiveHourIsComputedOnceItsLastMinuteIsRefreshed() throws Exception {
    String cl = env.cluster + "-livehour";
    String node = cl + "-n";
    // hours ahead of the database clock, so the rows are live however long the test takes
    Instant next = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).plus(Duration.ofHours(3));
    String bucketsSql = "SELECT extract(epoch FROM bucket)::bigint, samples FROM %s WHERE node = '" + node + "' ORDER BY bucket";
    try (Connection c = env.connect()) {
      List<GpuSample> lastTwoMinutes = new ArrayList<>();
      for (int s = -120; s < 0; s++) {
        lastTwoMinutes.add(SampleRecords.gpu(cl, node, 0, next.plusSeconds(s).toEpochMilli(), 1));
      }
      DirectWriter.write(c, Topics.GPU, lastTwoMinutes);
      new RollupMaintainer().refresh(c);
      assertThat(rows(c, bucketsSql.formatted("gpu_rollup_1m"))).as("the hour's last minute is live")
          .containsExactly(List.of(next.getEpochSecond() - 120, 60L));
      assertThat(rows(c, bucketsSql.formatted("gpu_rollup_1h"))).as("the hour is not complete").isEmpty();

      List<GpuSample> nextHour = new ArrayList<>();
      for (int s = 0; s < 30; s++) {
        nextHour.add(SampleRecords.gpu(cl, node, 0, next.plusSeconds(s).toEpochMilli(), 1));
      }
      DirectWriter.write(c, Topics.GPU, nextHour);
      new RollupMaintainer().refresh(c);
      assertThat(rows(c, bucketsSql.formatted("gpu_rollup_1m")))
          .containsExactly(List.of(next.getEpochSecond() - 120, 60L), List.of(next.getEpochSecond() - 60, 60L));
      assertThat(rows(c, bucketsSql.formatted("gpu_rollup_1h"))).as("the complete hour, once; the live one not yet")
          .containsExactly(List.of(next.getEpochSecond() - 3600, 120L));
    } finally {
      try (Connection c = env.connect(); Statement st = c.createStatement()) {
        st.executeUpdate("DELETE FROM rollup_invalidations WHERE from_ts >= '" + next.minusSeconds(120) + "'"); // future rows would make other tests' rows old
      }
    }
  }

  @Test
  void aStragglerIsRefreshedForItsNodeOnly() throws Exception {
    String cl = env.cluster + "-strag";
    Instant h = Instant.parse("2026-05-31T14:00:00Z");
    try (Connection c = env.connect()) {
      List<GpuSample> first = new ArrayList<>();
      for (int s = 0; s < 120; s++) {
        for (String node : List.of(cl + "-a", cl + "-b")) {
          if (s == 59 && node.endsWith("-a")) {
            continue; // arrives minutes late
          }
          GpuSample g = SampleRecords.gpu(cl, node, 0, h.plusSeconds(s).toEpochMilli(), s);
          g.setEccSbeTotal(s < 59 ? 0L : 4L); // node a's straggler at 59 s carries the rise (first counted at 60 s)
          first.add(g);
        }
      }
      DirectWriter.write(c, Topics.GPU, first);
      new RollupMaintainer().refresh(c);
      // rows written by hand into node b's first minute: a refresh of every node would put it back
      try (Statement st = c.createStatement()) {
        st.executeUpdate("UPDATE gpu_rollup_1m SET samples = 999 WHERE node = '" + cl + "-b'");
      }
      GpuSample late = SampleRecords.gpu(cl, cl + "-a", 0, h.plusSeconds(59).toEpochMilli(), 59);
      late.setEccSbeTotal(4L);
      GpuSample now = SampleRecords.gpu(cl, cl + "-b", 0, h.plusSeconds(300).toEpochMilli(), 300);
      now.setEccSbeTotal(4L);
      DirectWriter.write(c, Topics.GPU, List.of(now, late));
      assertThat(rows(c, "SELECT node FROM rollup_invalidations WHERE node LIKE '" + cl + "%'"))
          .containsExactly(List.of(cl + "-a"));
      new RollupMaintainer().refresh(c);
      // node a: the straggler joins minute 0 and moves the rise there from minute 1 (its next sample's)
      assertThat(rows(c, "SELECT node, samples, ecc_sbe_increase FROM gpu_rollup_1m WHERE cluster = '" + cl
          + "' AND bucket < '" + h.plusSeconds(120) + "' ORDER BY node, bucket")).containsExactly(
          List.of(cl + "-a", 60L, 4L), List.of(cl + "-a", 60L, 0L),
          List.of(cl + "-b", 999L, 4L), List.of(cl + "-b", 999L, 0L));
    }
  }

  @Test
  void theServiceRefreshesRollupsOnItsSchedule() throws Exception {
    String cl = env.cluster + "-svc";
    Instant h = Instant.parse("2026-05-31T08:00:00Z");
    try (io.fleetscope.sink.service.SinkService sink = env.startSink(Map.of(
        io.fleetscope.sink.SinkConfig.ROLLUP_INTERVAL.name(), "1"))) {
      for (int s = 0; s < 120; s++) {
        env.send(Topics.GPU, cl + "-n", SampleRecords.gpu(cl, cl + "-n", 0, h.plusSeconds(s).toEpochMilli(), s));
      }
      env.flush();
      SinkTestEnv.await("two 1-minute buckets and one hour bucket", Duration.ofSeconds(60), SinkTestEnv.sql(() ->
          env.countWhere("gpu_rollup_1m", "cluster = '" + cl + "' AND samples = 60") == 2
              && env.countWhere("gpu_rollup_1h", "cluster = '" + cl + "' AND samples = 120") == 1));
    }
  }

  private static List<Long> days(Connection c, String sql) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
    }
    return out;
  }

  static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object o = rs.getObject(i);
          row.add(o instanceof Integer x ? (Object) x.longValue() : o);
        }
        out.add(row);
      }
    }
    return out;
  }
}
