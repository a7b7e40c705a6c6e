package io.fleetscope.sink;

import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.query.QueryMain;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.sink.write.WritePaths;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark (not a test) of TimescaleDB's community edition for FleetScope's data, three parts:
 *
 * <ol>
 *   <li>storage: the fleet simulator's GPU samples (one row: about 25 metrics at the precision the
 *       devices report) for {@code nodes} x 8 GPUs over {@code hours}, written with the sink's
 *       writer, then every chunk compressed: bytes on disk per row before and after compression
 *       (table, indexes and TOAST), and the compressed bytes per column. Compression works per GPU
 *       series (segment by node, gpu), so bytes per row do not depend on the number of GPUs: a
 *       20,000-GPU day is extrapolated from them.
 *   <li>ingest: rows/s through the sink's writer while a second connection compresses every chunk
 *       the writer has moved past (what the compression policy does), against the same ingest
 *       without it.
 *   <li>nvlink: the per-link NVLink rows of {@code nvlinkNodes} x 8 GPUs x {@code nvlinkLinks} links
 *       over {@code hours} (the agents send NVLink per link on fleet.nvlink.v1, not in the GPU
 *       sample), compressed: bytes per row, per GPU sample of the same run and per 1 Hz GPU sample.
 *   <li>queries: {@code rollupGpus} GPUs x 30 days of hourly rollups (gpu_rollup_1h, compressed),
 *       made by the sink's refresh functions from raw samples generated in SQL ({@link
 *       RollupQueryInput}: two a GPU-hour, ECC errors across the hour boundaries, checked), and the
 *       GPU named queries that read them (worst-gpus-ecc, gpu-health), each timed (median of 3
 *       after a warm-up).
 * </ol>
 *
 * <p>Run: see BENCHMARKS.md (TimescaleDB storage). Arguments: [nodes (16)] [hours (2); 0 skips
 * storage, ingest and NVLink] [rollupGpus (20000); 0 skips the queries] [nvlinkNodes (2); 0 skips]
 * [nvlinkLinks (18)] [nvlinkIntervalS (1): the simulator's interval in the NVLink part].
 */
public final class StorageBenchmark {
  private StorageBenchmark() {}

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    int hours = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int rollupGpus = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    int nvlinkNodes = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    int nvlinkLinks = args.length > 4 ? Integer.parseInt(args[4]) : 18;
    int nvlinkIntervalS = args.length > 5 ? Integer.parseInt(args[5]) : 1;
    if (!TestServices.communityEditionInstalled()) {
      throw new IllegalStateException(TestServices.COMMUNITY_MISSING);
    }
    LocalPostgres pg = TestServices.postgresCommunity();
    String url = pg.createDatabase("bench_storage");
    try (Connection c = DriverManager.getConnection(url, LocalPostgres.SUPERUSER, "")) {
      Migrator.migrate(c);
      if (Edition.detect(c) != Edition.COMMUNITY) {
        throw new IllegalStateException("not the community edition");
      }
      // rows a few days old: the chunks are compressible at once; no policies run (the sink is not started)
      Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(3));
      if (hours > 0) { // 0: the rollup queries only
        storageAndIngest(c, url, nodes, hours, start);
        if (nvlinkNodes > 0) {
          nvlinkStorage(c, nvlinkNodes, hours, nvlinkLinks, nvlinkIntervalS, start);
        }
      }
      if (rollupGpus > 0) { // 0: no rollup queries
        queries(c, url, rollupGpus);
      }
    }
    System.exit(0);
  }

  static void storageAndIngest(Connection c, String url, int nodes, int hours, Instant start) throws Exception {
    SimConfig cfg = SimConfig.of(nodes, Scenario.healthy(), 42).withStart(start.toEpochMilli())
        .withDuration(Duration.ofHours(hours)).withDisorder(0, 0);
    // half the hours without compression running, half with: a compressor follows the writer
    long half = start.plus(Duration.ofHours(Math.max(1, hours / 2))).toEpochMilli();
    BatchWriter writer = new BatchWriter(true, new WritePaths());
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    long[] rows = new long[2];
    long[] nanos = new long[2];
    AtomicLong writtenUpTo = new AtomicLong(start.toEpochMilli());
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong compressedWhileWriting = new AtomicLong();
    AtomicLong compressingNanos = new AtomicLong();
    AtomicLong compressorStart = new AtomicLong();
    Thread compressor = new Thread(() -> {
      try (Connection cc = DriverManager.getConnection(url, LocalPostgres.SUPERUSER, "")) {
        while (!done.get()) {
          long upTo = writtenUpTo.get();
          if (upTo > half) { // the writer is in the second half: compress every chunk it has left
            compressorStart.compareAndSet(0, System.nanoTime());
            long c0 = System.nanoTime();
            try (Statement s = cc.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT compress_chunk(ch, if_not_compressed => true) FROM show_chunks('gpu_raw', older_than => to_timestamp("
                    + (upTo / 1000 - 120) + ")) ch")) {
              while (rs.next()) {
                compressedWhileWriting.incrementAndGet();
              }
            }
            compressingNanos.addAndGet(System.nanoTime() - c0);
          }
          Thread.sleep(2_000);
        }
      } catch (Exception e) {
        System.err.println("compressor failed: " + e);
      }
    }, "bench-compressor");
    compressor.start();
    c.setAutoCommit(false);
    Iterator<SimRecord> it = new FleetSimulator(cfg).iterator();
    long genNanos = 0;
    while (true) {
      long g0 = System.nanoTime();
      boolean more = it.hasNext();
      SimRecord r = more ? it.next() : null;
      genNanos += System.nanoTime() - g0;
      if (r != null && !r.topic().equals(Topics.GPU)) {
        continue;
      }
      if (r != null) {
        batch.add(new SinkRecord(Topics.GPU, 0, offset++, r.key(), null, r.value()));
      }
      if (batch.size() >= 5_000 || (r == null && !batch.isEmpty())) {
        long ts = ((io.fleetscope.avro.GpuSample) batch.get(batch.size() - 1).value()).getTs();
        int part = ts > half ? 1 : 0;
        long t0 = System.nanoTime();
        writer.write(c, batch);
        c.commit();
        nanos[part] += System.nanoTime() - t0;
        rows[part] += batch.size();
        writtenUpTo.set(ts);
        batch.clear();
      }
      if (r == null) {
        break;
      }
    }
    long writerEnd = System.nanoTime();
    done.set(true);
    compressor.join();
    c.setAutoCommit(true);
    // the share of the second half's wall time in which a compress_chunk call was running: near 1 means
    // the writer's second-half rate was measured against compression running all the time
    long secondHalf = compressorStart.get() == 0 ? 0 : writerEnd - compressorStart.get();
    System.out.printf("ingest rows=%d without_compression_rows_per_s=%.0f with_compression_running_rows_per_s=%.0f "
            + "chunks_compressed_while_writing=%d compressor_busy_share=%.2f simulator_s=%.1f%n", rows[0] + rows[1],
        rows[0] / (nanos[0] / 1e9), rows[1] / (nanos[1] / 1e9), compressedWhileWriting.get(),
        secondHalf == 0 ? 0.0 : Math.min(1.0, compressingNanos.get() / (double) secondHalf), genNanos / 1e9);

    long total = scalarLong(c, "SELECT count(*) FROM gpu");
    long[] sizes = compressAll(c, "gpu_raw");
    long before = sizes[0];
    long after = sizes[1];
    Map<String, Long> stats = new LinkedHashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT before_compression_total_bytes, after_compression_table_bytes, after_compression_index_bytes, "
            + "after_compression_toast_bytes, after_compression_total_bytes FROM hypertable_compression_stats('gpu_raw')")) {
      rs.next();
      stats.put("before_total", rs.getLong(1));
      stats.put("after_table", rs.getLong(2));
      stats.put("after_index", rs.getLong(3));
      stats.put("after_toast", rs.getLong(4));
      stats.put("after_total", rs.getLong(5));
    }
    System.out.printf("storage gpu_rows=%d gpus=%d hours=%d bytes_per_row_uncompressed=%.1f bytes_per_row_compressed=%.2f "
            + "ratio=%.1f compressed_table=%d compressed_index=%d compressed_toast=%d%n", total, scalarLong(c,
            "SELECT count(DISTINCT (node, gpu)) FROM gpu"), hours, (double) before / total, (double) after / total,
        (double) before / after, stats.get("after_table"), stats.get("after_index"), stats.get("after_toast"));
    double perRow = (double) after / total;
    System.out.printf("extrapolated 20000_gpus_1hz_day rows=%d compressed_gib=%.1f uncompressed_gib=%.1f%n",
        20_000L * 86_400, perRow * 20_000L * 86_400 / (1L << 30), (double) before / total * 20_000L * 86_400 / (1L << 30));
    columns(c, "gpu_raw", total);
  }

  /**
   * The per-link NVLink rows that go with the GPU samples: the simulator's links (as the agents' nvlink
   * collector sends them, one fleet.nvlink.v1 record per GPU and link at the GPU samples' interval) written
   * to {@code nvlink} with the sink's writer and compressed, reported per row and per GPU sample of the
   * same run, so a GPU's whole telemetry is counted.
   */
  static void nvlinkStorage(Connection c, int nodes, int hours, int links, int intervalS, Instant start) throws Exception {
    Scenario healthy = Scenario.healthy();
    Scenario withLinks = new Scenario(healthy.name(), healthy.description(), healthy.duration(), healthy.minNodes(),
        healthy.site(), Map.of("nvlink_links", links), healthy.faults(), healthy.analytics());
    SimConfig cfg = SimConfig.of(nodes, withLinks, 42).withStart(start.toEpochMilli()).withDuration(Duration.ofHours(hours))
        .withInterval(intervalS * 1000L).withDisorder(0, 0);
    BatchWriter writer = new BatchWriter(true, new WritePaths());
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    long gpuSamples = 0;
    c.setAutoCommit(false);
    Iterator<SimRecord> it = new FleetSimulator(cfg).iterator();
    while (it.hasNext()) {
      SimRecord r = it.next();
      if (r.topic().equals(Topics.GPU)) {
        gpuSamples++;
      } else if (r.topic().equals(Topics.NVLINK)) {
        batch.add(new SinkRecord(Topics.NVLINK, 0, offset++, r.key(), null, r.value()));
      }
      if (batch.size() >= 5_000) {
        writer.write(c, batch);
        c.commit();
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      writer.write(c, batch);
      c.commit();
    }
    c.setAutoCommit(true);
    long rows = scalarLong(c, "SELECT count(*) FROM nvlink");
    long[] sizes = compressAll(c, "nvlink");
    long before = sizes[0];
    long after = sizes[1];
    // per GPU sample of this run (NVLink at the GPU samples' interval) and per 1 Hz GPU sample (NVLink every intervalS)
    System.out.printf("nvlink rows=%d gpu_samples=%d links_per_gpu=%d interval_s=%d hours=%d bytes_per_row_uncompressed=%.1f "
            + "bytes_per_row_compressed=%.2f ratio=%.1f bytes_per_gpu_sample_uncompressed=%.1f "
            + "bytes_per_gpu_sample_compressed=%.2f bytes_per_1hz_gpu_sample_compressed=%.2f%n", rows, gpuSamples, links,
        intervalS, hours, (double) before / rows, (double) after / rows, (double) before / after, (double) before / gpuSamples,
        (double) after / gpuSamples, (double) after / gpuSamples / intervalS);
    columns(c, "nvlink", rows);
    nvlinkKibProbe(c, rows, gpuSamples, intervalS);
  }

  /** The same NVLink rows in the what-if layout of {@link NvlinkKibProbe}, compressed. */
  static void nvlinkKibProbe(Connection c, long rows, long gpuSamples, int intervalS) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : NvlinkKibProbe.create()) {
        s.execute(sql);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(compress_chunk(ch, if_not_compressed => true)) FROM show_chunks('"
          + NvlinkKibProbe.TABLE + "') ch")) {
        rs.next();
      }
      s.execute("VACUUM ANALYZE " + NvlinkKibProbe.TABLE);
    }
    long after = scalarLong(c, "SELECT hypertable_size('" + NvlinkKibProbe.TABLE + "')");
    System.out.printf("nvlink_kib_probe rows=%d bytes_per_row_compressed=%.2f bytes_per_gpu_sample_compressed=%.2f "
        + "bytes_per_1hz_gpu_sample_compressed=%.2f%n", rows, (double) after / rows, (double) after / gpuSamples,
        (double) after / gpuSamples / intervalS);
    columns(c, NvlinkKibProbe.TABLE, rows);
  }

  /** Compressed bytes per column over every compressed chunk of a hypertable (pg_column_size of the compressed datums). */
  static void columns(Connection c, String hypertable, long rows) throws SQLException {
    List<String> chunks = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT format('%I.%I', cc.schema_name, cc.table_name) FROM _timescaledb_catalog.chunk ch "
            + "JOIN _timescaledb_catalog.chunk cc ON cc.id = ch.compressed_chunk_id "
            + "JOIN _timescaledb_catalog.hypertable h ON h.id = ch.hypertable_id WHERE h.table_name = '" + hypertable + "'")) {
      while (rs.next()) {
        chunks.add(rs.getString(1));
      }
    }
    if (chunks.isEmpty()) {
      return;
    }
    List<String> cols = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT attname FROM pg_attribute WHERE attrelid = '" + chunks.get(0) + "'::regclass AND attnum > 0 AND NOT attisdropped "
            + "ORDER BY attnum")) {
      while (rs.next()) {
        cols.add(rs.getString(1));
      }
    }
    Map<String, Long> bytes = new LinkedHashMap<>();
    for (String chunk : chunks) {
      StringBuilder q = new StringBuilder("SELECT ");
      for (int i = 0; i < cols.size(); i++) {
        q.append(i == 0 ? "" : ", ").append("coalesce(sum(pg_column_size(\"").append(cols.get(i)).append("\")), 0)");
      }
      q.append(" FROM ").append(chunk);
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q.toString())) {
        rs.next();
        for (int i = 0; i < cols.size(); i++) {
          bytes.merge(cols.get(i), rs.getLong(i + 1), Long::sum);
        }
      }
    }
    long sum = bytes.values().stream().mapToLong(Long::longValue).sum();
    System.out.printf("columns table=%s compressed_datum_bytes_per_row=%.2f (sum of pg_column_size over the compressed chunks)%n",
        hypertable, (double) sum / rows);
    bytes.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).forEach(e ->
        System.out.printf("column table=%s name=%s bytes_per_row=%.3f share=%.1f%%%n", hypertable, e.getKey(),
            (double) e.getValue() / rows, 100.0 * e.getValue() / sum));
  }

  static void queries(Connection c, String url, int gpus) throws Exception {
    int nodes = gpus / 8;
    RollupQueryInput in = new RollupQueryInput(Instant.now().truncatedTo(ChronoUnit.HOURS));
    try (Statement s = c.createStatement()) {
      s.execute("SET jit = off");
    }
    long t0 = System.nanoTime();
    long raw;
    try (Statement s = c.createStatement()) {
      raw = s.executeUpdate(in.insertRaw(nodes));
    }
    long insertRaw = System.nanoTime() - t0;
    // the maintainer's way: each hour's 1-minute buckets refreshed on their own, so every hour's first
    // sample finds its GPU's previous sample through the lookup before the range
    t0 = System.nanoTime();
    for (int h = 0; h < RollupQueryInput.HOURS; h++) {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT refresh_gpu_rollup_1m("
          + in.hourStart(h) + ", " + in.hourStart(h + 1) + ")")) {
        rs.next();
      }
    }
    long refresh1m = System.nanoTime() - t0;
    t0 = System.nanoTime();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT refresh_gpu_rollup_1h("
        + in.hourStart(0) + ", " + in.hourStart(RollupQueryInput.HOURS) + ")")) {
      rs.next();
    }
    long refresh1h = System.nanoTime() - t0;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(in.eccCheck())) {
      rs.next();
      long want = RollupQueryInput.SBE_PER_HOUR * (RollupQueryInput.HOURS - 1L);
      System.out.printf("rollups raw_rows=%d insert_raw_s=%.1f refresh_1m_hourly_calls=%d refresh_1m_s=%.1f refresh_1h_s=%.1f "
              + "ecc_gpus=%d ecc_sbe_min=%d ecc_sbe_max=%d ecc_sbe_expected=%d%n", raw, insertRaw / 1e9,
          RollupQueryInput.HOURS, refresh1m / 1e9, refresh1h / 1e9, rs.getLong(1), rs.getLong(2), rs.getLong(3), want);
      if (rs.getLong(1) != RollupQueryInput.eccGpus(gpus) || rs.getLong(2) != want || rs.getLong(3) != want) {
        throw new IllegalStateException("hourly ECC increases differ from the input's: the previous-sample lookup of "
            + "refresh_gpu_rollup_1m did not find the hour before");
      }
    }
    long gen = insertRaw + refresh1m + refresh1h;
    long rows = scalarLong(c, "SELECT count(*) FROM gpu_rollup_1h");
    long before = scalarLong(c, "SELECT hypertable_size('gpu_rollup_1h')");
    t0 = System.nanoTime();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT count(compress_chunk(ch, if_not_compressed => true)) FROM show_chunks('gpu_rollup_1h') ch")) {
      rs.next();
    }
    long comp = System.nanoTime() - t0;
    try (Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE gpu_rollup_1h");
    }
    long after = scalarLong(c, "SELECT hypertable_size('gpu_rollup_1h')");
    System.out.printf("rollups gpu_rollup_1h_rows=%d gpus=%d days=30 raw_insert_and_refresh_s=%.1f compress_s=%.1f bytes_uncompressed=%d "
        + "bytes_compressed=%d bytes_per_row_compressed=%.1f%n", rows, gpus, gen / 1e9, comp / 1e9, before, after, (double) after / rows);
    String[][] named = {
        {"worst-gpus-ecc", "days=30", "limit=20"},
        {"gpu-health", "days=30", "limit=50"},
    };
    for (String[] q : named) {
      List<String> argv = new ArrayList<>(List.of(q[0], "--format", "csv"));
      for (int i = 1; i < q.length; i++) {
        argv.add("--param");
        argv.add(q[i]);
      }
      List<Double> ms = new ArrayList<>();
      String out = "";
      for (int run = 0; run < 4; run++) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long q0 = System.nanoTime();
        int rc = QueryMain.run(argv.toArray(String[]::new), Map.of("FLEETSCOPE_JDBC_URL", url, "FLEETSCOPE_JDBC_USER",
            LocalPostgres.SUPERUSER), new PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8),
            new PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        if (rc != 0) {
          throw new IllegalStateException(q[0] + " failed rc=" + rc + ": " + err);
        }
        if (run > 0) {
          ms.add((System.nanoTime() - q0) / 1e6);
        }
        out = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
      }
      ms.sort(Double::compare);
      System.out.printf("query name=%s params=\"%s\" median_ms=%.0f rows_out=%d%n", q[0],
          String.join(" ", java.util.Arrays.copyOfRange(q, 1, q.length)), ms.get(1), out.lines().count() - 1);
    }
  }

  static long scalarLong(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Compresses every chunk of {@code table}; its size before and after, in bytes (vacuumed and analyzed). */
  private static long[] compressAll(Connection c, String table) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE " + table);
    }
    long before = scalarLong(c, "SELECT hypertable_size('" + table + "')");
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT count(compress_chunk(ch, if_not_compressed => true)) FROM show_chunks('" + table + "') ch")) {
      rs.next();
    }
    try (Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE " + table);
    }
    return new long[] {before, scalarLong(c, "SELECT hypertable_size('" + table + "')")};
  }
}
