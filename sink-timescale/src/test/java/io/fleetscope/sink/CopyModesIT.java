package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.export.RowDecoder;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.CopyFormat;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.sink.write.TableSpec;
import io.fleetscope.sink.write.TableWriter;
import io.fleetscope.sink.write.Tables;
import io.fleetscope.sink.write.WritePaths;
import io.fleetscope.stack.services.LocalPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two write paths on one connection, batch by batch: direct-first COPYs new rows straight
 * into the hypertable, falls back to the staging path for a batch with a stored row (also when it
 * is mixed with new rows), stays on staging while batches keep finding stored rows, and returns
 * to direct COPY after a staging batch of only new rows. Every key is stored once either way, and
 * every topic's record reads back equal in both COPY formats.
 */
class CopyModesIT {
  static SinkTestEnv env;
  static final long T0 = 1_780_000_000_000L;

  @BeforeAll
  static void setUp() throws Exception {
    env = new SinkTestEnv("sink_copy_modes");
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
    }
  }

  @AfterAll
  static void tearDown() {
    env.close();
  }

  /** 8 GPUs of one node for each second in [from, to). */
  static List<GpuSample> seconds(String cluster, int from, int to) {
    List<GpuSample> out = new ArrayList<>();
    for (int s = from; s < to; s++) {
      for (int g = 0; g < 8; g++) {
        out.add(SampleRecords.gpu(cluster, cluster + "-n1", g, T0 + s * 1000L, s));
      }
    }
    return out;
  }

  static BatchWriter.Result write(Connection c, BatchWriter w, List<GpuSample> rows) throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    for (GpuSample g : rows) {
      batch.add(new SinkRecord(Topics.GPU, 0, offset++, g.getNode(), null, g));
    }
    BatchWriter.Result r = w.write(c, batch);
    c.commit();
    return r;
  }

  static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void directFirstFallsBackForStoredRowsAndReturnsToDirect() throws Exception {
    String cluster = env.cluster + "-adaptive";
    String own = "cluster = '" + cluster + "'";
    WritePaths paths = new WritePaths();
    BatchWriter w = new BatchWriter(true, paths);
    try (Connection c = env.connect()) {
      c.setAutoCommit(false);
      long invalidations0 = count(c, "SELECT count(*) FROM rollup_invalidations WHERE source = 'gpu'");

      assertThat(write(c, w, seconds(cluster, 0, 2)).inserted()).isEqualTo(16);
      assertThat(paths.direct.get()).as("new rows: direct COPY").isEqualTo(1);
      assertThat(paths.fallbacks.get()).isZero();
      assertThat(count(c, "SELECT count(*) FROM rollup_invalidations WHERE source = 'gpu'"))
          .as("the direct path logs its range for the rollups").isEqualTo(invalidations0 + 1);

      assertThat(write(c, w, seconds(cluster, 0, 2)).inserted()).as("the same rows again").isZero();
      assertThat(paths.fallbacks.get()).isEqualTo(1);
      assertThat(paths.staging.get()).isEqualTo(1);

      assertThat(write(c, w, seconds(cluster, 1, 3)).inserted()).as("half stored, half new").isEqualTo(8);
      assertThat(paths.staging.get()).as("after a fallback the next batch goes staging").isEqualTo(2);
      assertThat(paths.fallbacks.get()).as("without another aborted COPY").isEqualTo(1);

      assertThat(write(c, w, seconds(cluster, 3, 5)).inserted()).isEqualTo(16);
      assertThat(paths.staging.get()).as("still staging: the previous batch found stored rows").isEqualTo(3);

      assertThat(write(c, w, seconds(cluster, 5, 7)).inserted()).isEqualTo(16);
      assertThat(paths.direct.get()).as("back to direct after a staging batch of only new rows").isEqualTo(2);

      assertThat(write(c, w, seconds(cluster, 6, 9)).inserted()).as("mixed batch on the direct path").isEqualTo(16);
      assertThat(paths.fallbacks.get()).isEqualTo(2);
      assertThat(paths.staging.get()).isEqualTo(4);

      assertThat(count(c, "SELECT count(*) FROM gpu WHERE " + own)).isEqualTo(9 * 8);
      assertThat(count(c, "SELECT count(*) FROM (SELECT DISTINCT node, gpu, ts FROM gpu WHERE " + own + ") d")).isEqualTo(9 * 8);
    }
  }

  @Test
  void directFirstStillIsolatesARefusedRow() throws Exception {
    String cluster = env.cluster + "-refused";
    WritePaths paths = new WritePaths();
    BatchWriter w = new BatchWriter(true, paths);
    List<GpuSample> rows = seconds(cluster, 0, 2);
    rows.get(5).setGpu(300); // violates gpu_index_valid
    try (Connection c = env.connect()) {
      c.setAutoCommit(false);
      BatchWriter.Result r = write(c, w, rows);
      assertThat(r.inserted()).isEqualTo(15);
      assertThat(r.rejects()).hasSize(1);
      assertThat(r.rejects().get(0).reason()).contains("gpu_index_valid");
      assertThat(paths.fallbacks.get()).as("the refused direct COPY went the staging path").isPositive();
      assertThat(count(c, "SELECT count(*) FROM gpu WHERE cluster = '" + cluster + "'")).isEqualTo(15);
    }
  }

  /** Every topic's record, written by the writer (both paths, both formats), reads back equal; a resend changes nothing. */
  @ParameterizedTest
  @CsvSource({"binary,true", "binary,false", "csv,true", "csv,false"})
  void everyTableRoundTripsInBothFormatsAndPaths(String format, boolean directFirst) throws Exception {
    String cluster = env.cluster + "-rt-" + format + "-" + (directFirst ? "direct" : "staging");
    Map<String, List<SampleRecords.Keyed>> all = SampleRecords.everyTopic(cluster, T0);
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    for (Map.Entry<String, List<SampleRecords.Keyed>> e : all.entrySet()) {
      for (SampleRecords.Keyed k : e.getValue()) {
        batch.add(new SinkRecord(e.getKey(), 0, offset++, k.key(), null, k.value()));
      }
    }
    WritePaths paths = new WritePaths();
    BatchWriter w = new BatchWriter(directFirst, CopyFormat.of(format), paths);
    // a database of its own: some natural keys (dead_letters) do not hold the cluster
    String url = env.pg.createDatabase("sink_copy_modes_rt_" + format + "_" + directFirst);
    try (Connection c = new Database(url, LocalPostgres.SUPERUSER, "", "").open()) {
      Migrator.migrate(c);
      c.setAutoCommit(false);
      BatchWriter.Result first = w.write(c, batch);
      c.commit();
      assertThat(first.rejects()).isEmpty();
      assertThat(first.inserted()).isEqualTo(batch.size());
      BatchWriter.Result again = w.write(c, batch);
      c.commit();
      assertThat(again.rejects()).isEmpty();
      assertThat(again.inserted()).as("the same records again").isZero();
      assertThat(paths.direct.get() > 0).as("direct COPYs").isEqualTo(directFirst);
      for (Map.Entry<String, List<SampleRecords.Keyed>> e : all.entrySet()) {
        TableSpec spec = Tables.forTopic(e.getKey());
        List<SpecificRecord> back = readBack(c, spec.table(), e.getKey(), cluster);
        assertThat(back).as("round trip of " + e.getKey() + " (" + format + ")").containsExactly(e.getValue().get(0).value());
        if (spec.hasCurrent()) {
          assertThat(readBack(c, spec.currentTable(), e.getKey(), cluster)).containsExactly(e.getValue().get(0).value());
        }
      }
    }
  }

  static List<SpecificRecord> readBack(Connection c, String table, String topic, String cluster) throws SQLException {
    RowDecoder d = new RowDecoder(Topics.require(topic).schema(), TableWriter.columns(c, table));
    String own = switch (table) {
      case "anomalies", "alerts" -> "fingerprint LIKE ?";
      case "dead_letters" -> "key LIKE ?";
      default -> "cluster LIKE ?";
    };
    List<SpecificRecord> out = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement("SELECT " + d.selectList() + " FROM " + table + " WHERE " + own)) {
      p.setString(1, cluster + "%");
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(d.decode(rs));
        }
      }
    }
    return out;
  }

  @Test
  void stagingModeNeverCopiesDirectly() throws Exception {
    String cluster = env.cluster + "-staging";
    WritePaths paths = new WritePaths();
    BatchWriter w = new BatchWriter(false, paths);
    try (Connection c = env.connect()) {
      c.setAutoCommit(false);
      assertThat(write(c, w, seconds(cluster, 0, 2)).inserted()).isEqualTo(16);
      assertThat(write(c, w, seconds(cluster, 1, 3)).inserted()).isEqualTo(8);
      assertThat(paths.direct.get()).isZero();
      assertThat(paths.fallbacks.get()).isZero();
      assertThat(paths.staging.get()).isEqualTo(2);
      assertThat(count(c, "SELECT count(*) FROM gpu WHERE cluster = '" + cluster + "'")).isEqualTo(24);
    }
  }
}
