package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.CompressionPolicies;
import io.fleetscope.sink.maintenance.ContinuousAggregates;
import io.fleetscope.sink.maintenance.RetentionJob;
import io.fleetscope.sink.maintenance.Rollups;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TimescaleDB's community edition on a real cluster (timescaledb.license = timescale): the
 * edition's migrations, the same relations and columns as on the Apache edition, compressed chunks
 * that still take late and duplicate rows, backfill through the continuous aggregates and the GPU
 * rollup maintainer, and the policies the sink installs (compression, refresh, retention) doing
 * their work. Skips with a message when the community build is not installed.
 */
class CommunityEditionIT {
  static SinkTestEnv env;
  static SinkTestEnv apache;
  /**
   * Times of the tests' rows: within raw retention (14 days), since the retention policies the sink
   * installs run in the background and would drop older chunks during the tests.
   */
  static final java.util.function.IntFunction<Instant> DAYS_AGO =
      d -> Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(d)).minus(Duration.ofHours(3));

  @BeforeAll
  static void setUp() throws Exception {
    Assumptions.assumeTrue(TestServices.communityEditionInstalled(), TestServices.COMMUNITY_MISSING);
    env = new SinkTestEnv("sink_community", true);
    apache = new SinkTestEnv("sink_community_apache_twin");
    try (Connection c = env.connect(); Connection a = apache.connect()) {
      assertThat(Edition.detect(c)).isEqualTo(Edition.COMMUNITY);
      assertThat(Edition.detect(a)).isEqualTo(Edition.APACHE);
      assertThat(Migrator.migrate(c)).contains("V008__compression.community.sql", "V011__rail_continuous_aggregates.community.sql");
      assertThat(Migrator.migrate(c)).as("a second run applies nothing").isEmpty();
      assertThat(Migrator.migrate(a)).doesNotContain("V008__compression.community.sql", "V011__rail_continuous_aggregates.community.sql");
    }
  }

  @AfterAll
  static void tearDown() {
    if (env != null) {
      env.close();
    }
    if (apache != null) {
      apache.close();
    }
  }

  @Test
  void everyRelationTheQueriesReadHasTheSameColumnsOnBothEditions() throws Exception {
    String sql = "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
        + "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        + "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p') AND a.attnum > 0 AND NOT a.attisdropped "
        + "AND c.relname NOT IN ('schema_migrations') ORDER BY 1, a.attnum";
    try (Connection c = env.connect(); Connection a = apache.connect()) {
      List<List<Object>> community = MaintenanceIT.rows(c, sql);
      List<List<Object>> apacheCols = MaintenanceIT.rows(a, sql);
      assertThat(community).as("relations, columns and types").isEqualTo(apacheCols);
      assertThat(community).extracting(r -> r.get(0)).contains("rail_rollup_1m", "rail_rollup_1h", "gpu_rollup_1m", "gpu_rollup_1h",
          "v_rail_utilisation_1m");
      assertThat(MaintenanceIT.rows(c, "SELECT view_name, materialized_only FROM timescaledb_information.continuous_aggregates ORDER BY 1"))
          .containsExactly(List.of("rail_rollup_1h", true), List.of("rail_rollup_1m", true));
      assertThat(MaintenanceIT.rows(c, "SELECT hypertable_name FROM timescaledb_information.hypertables "
          + "WHERE hypertable_schema = 'public' AND compression_enabled ORDER BY 1")).extracting(r -> r.get(0)).containsExactly(
          "ckpt", "ckpt_slo", "coolant", "ecc_trend", "gpu_mig", "gpu_raw", "gpu_rollup_1h", "gpu_rollup_1m", "gpu_xid", "ib", "nvlink", "pdu",
          "rail_bw", "storage", "thermal_risk");
      assertThat(MaintenanceIT.rows(c, "SELECT attname || ':' || coalesce('segmentby ' || segmentby_column_index, '') "
          + "|| coalesce('orderby ' || orderby_column_index, '') "
          + "FROM timescaledb_information.compression_settings WHERE hypertable_name = 'gpu_raw' ORDER BY attname"))
          .containsExactly(List.of("gpu:segmentby 2"), List.of("node:segmentby 1"), List.of("ts:orderby 1"));
    }
  }

  @Test
  void lateAndDuplicateRowsIntoACompressedChunkAreStored() throws Exception {
    String cl = env.cluster + "-late";
    String node = cl + "-n";
    Instant h = DAYS_AGO.apply(5);
    List<GpuSample> first = new ArrayList<>();
    for (int s = 0; s < 600; s += 2) { // every other second: the odd seconds arrive later
      first.add(SampleRecords.gpu(cl, node, 0, h.plusSeconds(s).toEpochMilli(), s));
    }
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.GPU, first);
      int compressed = compressAll(c, "gpu_raw", h.plus(Duration.ofHours(1)));
      assertThat(compressed).isPositive();
      assertThat(compressedChunks(c, "gpu_raw", h)).isEqualTo(1);

      List<GpuSample> late = new ArrayList<>();
      for (int s = 0; s < 600; s++) { // the 300 odd seconds are new, the 300 even ones are replays
        late.add(SampleRecords.gpu(cl, node, 0, h.plusSeconds(s).toEpochMilli(), s));
      }
      var res = DirectWriter.write(c, Topics.GPU, late);
      assertThat(res.rejects()).isEmpty();
      assertThat(env.countWhere("gpu", "node = '" + node + "'")).isEqualTo(600);
      assertThat(res.inserted()).as("only the new rows").isEqualTo(300);
      assertThat(env.countWhere("gpu", "node = '" + node + "' AND ts = '" + h.plusSeconds(301) + "'")).isEqualTo(1);
      // the sink's default path (a direct COPY, falling back to staging on a stored row) into the
      // compressed chunk: nothing new, nothing doubled
      var paths = new io.fleetscope.sink.write.WritePaths();
      c.setAutoCommit(false);
      var again = new io.fleetscope.sink.write.BatchWriter(true, paths).write(c, records(late));
      c.commit();
      c.setAutoCommit(true);
      assertThat(paths.fallbacks.get()).as("the direct COPY saw the stored rows").isEqualTo(1);
      assertThat(again.inserted()).isZero();
      assertThat(env.countWhere("gpu", "node = '" + node + "'")).isEqualTo(600);
    }
  }

  @Test
  void theSinkStoresLateRowsIntoACompressedChunkThroughKafka() throws Exception {
    String cl = env.cluster + "-sinklate";
    Instant h = DAYS_AGO.apply(4);
    try (Connection c = env.connect()) {
      List<GpuSample> first = new ArrayList<>();
      for (int s = 0; s < 60; s++) {
        first.add(SampleRecords.gpu(cl, cl + "-n", 1, h.plusSeconds(s).toEpochMilli(), s));
      }
      DirectWriter.write(c, Topics.GPU, first);
      compressAll(c, "gpu_raw", h.plus(Duration.ofHours(1)));
      assertThat(compressedChunks(c, "gpu_raw", h)).isEqualTo(1);
    }
    try (SinkService sink = env.startSink(Map.of())) {
      for (int s = 0; s < 120; s++) { // 60 replays, 60 late rows, into the compressed chunk
        env.send(Topics.GPU, cl + "-n", SampleRecords.gpu(cl, cl + "-n", 1, h.plusSeconds(s).toEpochMilli(), s));
      }
      env.flush();
      SinkTestEnv.await("120 rows, none doubled", Duration.ofSeconds(60),
          SinkTestEnv.sql(() -> env.countWhere("gpu", "cluster = '" + cl + "'") == 120));
      Thread.sleep(1_000);
      assertThat(env.countWhere("gpu", "cluster = '" + cl + "'")).isEqualTo(120);
      assertThat(env.countWhere("dead_letters", "key LIKE '" + cl + "%'")).as("nothing dead-lettered").isZero();
      assertThat(sink.edition()).isEqualTo(Edition.COMMUNITY);
    }
  }

  @Test
  void backfillReachesTheContinuousAggregatesAndTheGpuRollupsAlsoIntoCompressedChunks() throws Exception {
    String cl = env.cluster + "-backfill";
    Instant h = DAYS_AGO.apply(10); // outside the refresh policies' window, inside raw retention
    List<RailBandwidth> rails = new ArrayList<>();
    for (int w = 0; w < 12; w++) { // two minutes of 10 s windows
      long end = h.plusSeconds(10L * (w + 1)).toEpochMilli() - 1;
      double u = w < 6 ? 0.5 : 0.7;
      rails.add(RailBandwidth.newBuilder().setTs(end).setWindowStart(end - 10_000).setWindowEnd(end).setCluster(cl).setRail(3)
          .setTxGbps(u * 400).setRxGbps(u * 380).setLineRateGbps(400).setUtilisation(u).setPortsUp(w == 7 ? 6 : 8)
          .setPortsTotal(8).build());
    }
    List<GpuSample> gpu = new ArrayList<>();
    for (int s = 0; s < 120; s++) {
      GpuSample g = SampleRecords.gpu(cl, cl + "-n", 0, h.plusSeconds(s).toEpochMilli(), s);
      g.setTempC(60.0 + s / 60);
      g.setEccSbeTotal((long) (s / 20));
      gpu.add(g);
    }
    Rollups rollups = Rollups.forEdition(Edition.COMMUNITY, env.config(Map.of()));
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.RAIL_BW, rails);
      DirectWriter.write(c, Topics.GPU, gpu.subList(0, 60));
      rollups.refresh(c);
      assertThat(MaintenanceIT.rows(c, "SELECT extract(epoch FROM bucket)::bigint, windows, round(utilisation_avg::numeric, 6)::float8, ports_up_min "
          + "FROM rail_rollup_1m WHERE cluster = '" + cl + "' ORDER BY bucket")).containsExactly(
          List.of(h.getEpochSecond(), 6L, 0.5, 8L), List.of(h.getEpochSecond() + 60, 6L, 0.7, 6L));
      assertThat(MaintenanceIT.rows(c, "SELECT windows, round(utilisation_avg::numeric, 6)::float8 FROM rail_rollup_1h "
          + "WHERE cluster = '" + cl + "'")).containsExactly(List.of(12L, 0.6));
      assertThat(MaintenanceIT.rows(c, "SELECT windows FROM v_rail_utilisation_1m WHERE cluster = '" + cl + "' ORDER BY bucket"))
          .containsExactly(List.of(6L), List.of(6L));

      // the GPU rollup of the first minute is compressed; the second minute arrives late and the
      // maintainer upserts into the compressed chunk (and its first delta reaches back into it)
      assertThat(compressAll(c, "gpu_rollup_1m", h.plus(Duration.ofDays(1)))).isPositive();
      assertThat(compressAll(c, "gpu_raw", h.plus(Duration.ofDays(1)))).isPositive();
      DirectWriter.write(c, Topics.GPU, gpu.subList(60, 120));
      rollups.refresh(c);
      assertThat(MaintenanceIT.rows(c, "SELECT samples, temp_c_avg, ecc_sbe_increase FROM gpu_rollup_1m WHERE cluster = '" + cl
          + "' ORDER BY bucket")).containsExactly(List.of(60L, 60.0, 2L), List.of(60L, 61.0, 3L));
      assertThat(MaintenanceIT.rows(c, "SELECT samples, ecc_sbe_increase FROM gpu_rollup_1h WHERE cluster = '" + cl + "'"))
          .containsExactly(List.of(120L, 5L));
      // this test's ranges only: another test's rows of the current minute are held and re-logged by
      // the maintainer until the minute has closed, whatever the order the tests run in
      assertThat(env.countWhere("rollup_invalidations", "node = '" + cl + "-n' OR (node IS NULL AND from_ts < '"
          + h.plus(Duration.ofHours(1)) + "' AND to_ts > '" + h.minus(Duration.ofHours(1)) + "')"))
          .as("invalidations consumed").isZero();
    }
  }

  @Test
  void theSinkInstallsPoliciesThatCompressAndExpireChunks() throws Exception {
    String cl = env.cluster + "-pol";
    Instant now = Instant.now().truncatedTo(ChronoUnit.HOURS);
    List<GpuSample> gpu = new ArrayList<>();
    for (int days : new int[] {20, 3, 0}) {
      for (int s = 0; s < 10; s++) {
        gpu.add(SampleRecords.gpu(cl, cl + "-n", 0, now.minus(Duration.ofDays(days)).plusSeconds(s).toEpochMilli(), s));
      }
    }
    try (Connection c = env.connect()) {
      DirectWriter.write(c, Topics.GPU, gpu);
    }
    SinkConfig config = env.config(Map.of());
    try (SinkService sink = env.startSink(Map.of())) {
      assertThat(sink.edition()).isEqualTo(Edition.COMMUNITY);
    }
    try (Connection c = env.connect()) {
      Map<String, String> jobs = new TreeMap<>();
      for (List<Object> r : MaintenanceIT.rows(c, "SELECT proc_name || ':' || hypertable_name, "
          + "coalesce(config->>'drop_after', config->>'compress_after', config->>'start_offset') "
          + "FROM timescaledb_information.jobs WHERE hypertable_schema = 'public' OR hypertable_name IS NOT NULL")) {
        jobs.put((String) r.get(0), String.valueOf(r.get(1)));
      }
      assertThat(jobs).containsEntry("policy_retention:gpu_raw", "14 days").containsEntry("policy_retention:gpu_xid", "400 days")
          .containsEntry("policy_compression:gpu_raw", "2 days").containsEntry("policy_compression:gpu_rollup_1m", "7 days")
          .containsEntry("policy_compression:rail_bw", "2 days");
      assertThat(jobs.keySet()).as("alerts are kept").noneMatch(k -> k.endsWith(":alerts"));
      assertThat(jobs.keySet().stream().filter(k -> k.startsWith("policy_retention:")).toList())
          .as("retention per table: raw, events, rollups").hasSize(RetentionJob.windows(config).size());
      // the continuous aggregates' policies are on their materialization hypertables
      assertThat(MaintenanceIT.rows(c, "SELECT j.proc_name, count(*) FROM timescaledb_information.jobs j "
          + "WHERE j.hypertable_name IN (SELECT view_name FROM timescaledb_information.continuous_aggregates "
          + "UNION ALL SELECT materialization_hypertable_name FROM timescaledb_information.continuous_aggregates) "
          + "GROUP BY 1 ORDER BY 1")).as("refresh, compression and retention policies of both aggregates")
          .containsExactly(List.of("policy_compression", 2L), List.of("policy_refresh_continuous_aggregate", 2L),
              List.of("policy_retention", 2L));
      assertThat(new CompressionPolicies(config).plan(c)).containsKeys(ContinuousAggregates.RAIL_1M, ContinuousAggregates.RAIL_1H);

      // run the gpu policies now, as the job scheduler will: the 20-day-old chunk goes, the 3-day-old one is compressed
      runJob(c, "policy_retention", "gpu_raw");
      runJob(c, "policy_compression", "gpu_raw");
      assertThat(MaintenanceIT.rows(c, "SELECT round(extract(epoch FROM now() - ts) / 86400)::bigint, count(*) FROM gpu "
          + "WHERE cluster = '" + cl + "' GROUP BY 1 ORDER BY 1")).containsExactly(List.of(0L, 10L), List.of(3L, 10L));
      assertThat(compressedChunks(c, "gpu_raw", now.minus(Duration.ofDays(3)))).isEqualTo(1);
      assertThat(compressedChunks(c, "gpu_raw", now)).as("the current chunk stays open").isZero();
    }
  }

  private static void runJob(Connection c, String proc, String table) throws SQLException {
    long id = (Long) MaintenanceIT.rows(c, "SELECT job_id::bigint FROM timescaledb_information.jobs WHERE proc_name = '" + proc
        + "' AND hypertable_name = '" + table + "'").get(0).get(0);
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(true);
    try (Statement s = c.createStatement()) {
      s.execute("CALL run_job(" + id + ")");
    } finally {
      c.setAutoCommit(auto);
    }
  }

  /**
   * Compresses every chunk of the table older than {@code before}; returns how many chunks that is.
   * The scheduler's own compression policy may compress a chunk at the same moment (the background
   * jobs run since the patched build): such a chunk counts as compressed, as it is.
   */
  static int compressAll(Connection c, String table, Instant before) throws SQLException {
    java.util.List<String> chunks = new java.util.ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT ch::text "
        + "FROM show_chunks('" + table + "', older_than => timestamptz '" + before + "') ch")) {
      while (rs.next()) {
        chunks.add(rs.getString(1));
      }
    }
    for (String ch : chunks) {
      try (Statement s = c.createStatement()) {
        s.execute("SELECT compress_chunk('" + ch + "'::regclass, if_not_compressed => true)");
      } catch (SQLException e) {
        if (e.getMessage() == null || !e.getMessage().contains("is already compressed")) {
          throw e;
        }
      }
    }
    return chunks.size();
  }

  /** Compressed chunks of the table that contain the instant. */
  static long compressedChunks(Connection c, String table, Instant at) throws SQLException {
    return (Long) MaintenanceIT.rows(c, "SELECT count(*) FROM timescaledb_information.chunks WHERE hypertable_name = '" + table
        + "' AND is_compressed AND range_start <= '" + at + "' AND range_end > '" + at + "'").get(0).get(0);
  }

  private static List<io.fleetscope.sink.write.SinkRecord> records(List<GpuSample> samples) {
    List<io.fleetscope.sink.write.SinkRecord> out = new ArrayList<>();
    long offset = 0;
    for (GpuSample g : samples) {
      out.add(new io.fleetscope.sink.write.SinkRecord(Topics.GPU, 0, offset++, null, null, g));
    }
    return out;
  }
}
