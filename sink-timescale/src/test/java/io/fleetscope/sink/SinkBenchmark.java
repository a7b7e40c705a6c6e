package io.fleetscope.sink;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.sink.write.CopyFormat;
import io.fleetscope.sink.write.TableWriter;
import io.fleetscope.sink.write.WritePaths;
import io.fleetscope.stack.services.TestServices;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Benchmark (not a test): rows/s into the gpu hypertable through the whole sink (Kafka consumer,
 * Avro decoding, encoding, COPY, database commit, offset commit) against plain COPY of the same
 * rows into the same table, on the same TestServices broker and database server. Each run
 * measures every variant back to back, each on a fresh migrated database: the plain COPYs
 * ({@code copy_csv}/{@code copy_binary}: one COPY of all rows in CSV/binary; {@code *_batched}:
 * 5,000-row COPYs, one transaction each; encoding timed too) and the sinks ({@code sink}: the
 * default settings; the others with the settings of {@link #SINKS}). Odd runs measure the sinks
 * first, even runs the COPYs first. Prints per run the rates, each sink's ratio to the fastest
 * plain COPY of that run, CPU microseconds per row of this JVM and of the database server, then
 * the medians of the per-run values.
 *
 * <p>Run: see BENCHMARKS.md (sink-timescale). Arguments: [rows (default 150000)] [runs (default 5)]
 * [comma-separated variants (default all of {@link #VARIANTS})]; {@code -Dbench.partitions=N}
 * (default 4, as {@code fleetscope run} creates the topics) for fleet.gpu.v1.
 */
public final class SinkBenchmark {
  private SinkBenchmark() {}

  /** The sinks measured: name -> settings over the defaults. */
  static final Map<String, Map<String, String>> SINKS = new java.util.LinkedHashMap<>();

  static {
    SINKS.put("sink", Map.of());
    SINKS.put("sink_staging", Map.of(SinkConfig.COPY_MODE.name(), "staging"));
    SINKS.put("sink_csv", Map.of(SinkConfig.COPY_FORMAT.name(), "csv"));
    SINKS.put("sink_staging_csv", Map.of(SinkConfig.COPY_MODE.name(), "staging", SinkConfig.COPY_FORMAT.name(), "csv"));
    SINKS.put("sink_1worker", Map.of(SinkConfig.WORKERS.name(), "1"));
    SINKS.put("sink_3workers", Map.of(SinkConfig.WORKERS.name(), "3"));
  }

  /** Every variant: the plain COPYs, then the sinks. */
  static final List<String> VARIANTS = Stream.concat(Stream.of("copy_csv", "copy_csv_batched", "copy_binary",
      "copy_binary_batched"), SINKS.keySet().stream()).toList();

  /** One measurement: rows/s, CPU µs per row of this JVM and of the database server (NaN when unknown). */
  record Rate(double rowsPerS, double jvmUsPerRow, double dbUsPerRow) {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 150_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    // fleet.gpu.v1 gets the stack's partition count (RunCommand.PARTITIONS, 4) unless told; created
    // before SinkTestEnv, which leaves an existing topic as it is
    int partitions = Integer.getInteger("bench.partitions", 4);
    TestServices.kafka().createTopic(Topics.GPU, partitions);
    SinkTestEnv env = new SinkTestEnv("sink_bench_produce");
    long t0 = 1_780_000_000_000L;
    int gpusPerSecond = 8 * 125; // 125 nodes x 8 GPUs
    List<GpuSample> records = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      int second = i / gpusPerSecond;
      int idx = i % gpusPerSecond;
      String node = "bench-node-" + (idx / 8);
      records.add(SampleRecords.gpu("bench", node, idx % 8, t0 + second * 1000L, second));
    }
    for (GpuSample g : records) {
      env.send(Topics.GPU, g.getNode(), g);
    }
    env.flush();
    System.out.println("bench produced rows=" + rows + " topic=" + Topics.GPU + " partitions=" + partitions + " cores="
        + Runtime.getRuntime().availableProcessors() + " java=" + System.getProperty("java.version"));

    List<String> names = args.length > 2 ? List.of(args[2].split(",")) : VARIANTS;
    for (String n : names) {
      if (!VARIANTS.contains(n)) {
        throw new IllegalArgumentException("unknown variant " + n + ", known: " + VARIANTS);
      }
    }
    List<String> copies = names.stream().filter(n -> n.startsWith("copy")).toList();
    List<String> sinks = names.stream().filter(n -> n.startsWith("sink")).toList();
    int v = names.size();
    double[][] rate = new double[v][runs];
    double[][] jvm = new double[v][runs];
    double[][] dbCpu = new double[v][runs];
    double[][] vsBest = new double[v][runs];
    for (int r = 0; r < runs; r++) {
      String load0 = loadAverage();
      Map<String, Rate> m = new java.util.HashMap<>();
      Map<String, String> pathsOf = new java.util.HashMap<>();
      boolean sinksFirst = r % 2 == 1;
      for (List<String> group : sinksFirst ? List.of(sinks, copies) : List.of(copies, sinks)) {
        for (String n : group) {
          String db = "sink_bench_" + n + "_" + r;
          if (n.startsWith("copy")) {
            m.put(n, plainCopy(env, db, records, n.endsWith("_batched") ? 5000 : rows,
                n.startsWith("copy_binary") ? CopyFormat.BINARY : CopyFormat.CSV));
          } else {
            WritePaths paths = new WritePaths();
            m.put(n, throughSink(env, db, rows, SINKS.get(n), paths));
            pathsOf.put(n, paths.toString().replace(" ", " " + n + "_"));
          }
        }
      }
      double best = copies.stream().mapToDouble(n -> m.get(n).rowsPerS()).max().orElse(Double.NaN);
      StringBuilder line = new StringBuilder("bench run=" + (r + 1) + " order=" + (sinksFirst ? "sinks-first" : "copies-first"));
      for (int i = 0; i < v; i++) {
        Rate x = m.get(names.get(i));
        rate[i][r] = x.rowsPerS();
        jvm[i][r] = x.jvmUsPerRow();
        dbCpu[i][r] = x.dbUsPerRow();
        vsBest[i][r] = x.rowsPerS() / best;
        line.append(String.format(" %s_rows_per_s=%.0f", names.get(i), rate[i][r]));
      }
      for (int i = 0; i < v; i++) {
        if (names.get(i).startsWith("sink")) {
          line.append(String.format(" %s_vs_best_copy=%.3f", names.get(i), vsBest[i][r]));
        }
      }
      for (int i = 0; i < v; i++) {
        line.append(String.format(" %s_jvm_cpu_us_per_row=%.2f %s_db_cpu_us_per_row=%.2f", names.get(i), jvm[i][r],
            names.get(i), dbCpu[i][r]));
      }
      for (String n : sinks) {
        line.append(" ").append(n).append("_").append(pathsOf.get(n));
      }
      line.append(" load_before=").append(load0).append(" load_after=").append(loadAverage());
      System.out.println(line);
    }
    StringBuilder med = new StringBuilder("bench median rows=" + rows + " runs=" + runs);
    for (int i = 0; i < v; i++) {
      med.append(String.format(" %s_rows_per_s=%.0f", names.get(i), median(rate[i])));
    }
    for (int i = 0; i < v; i++) {
      if (names.get(i).startsWith("sink")) {
        med.append(String.format(" %s_vs_best_copy=%.3f (min %.3f max %.3f)", names.get(i), median(vsBest[i]),
            Arrays.stream(vsBest[i]).min().orElse(Double.NaN), Arrays.stream(vsBest[i]).max().orElse(Double.NaN)));
      }
    }
    for (int i = 0; i < v; i++) {
      med.append(String.format(" %s_jvm_cpu_us_per_row=%.2f %s_db_cpu_us_per_row=%.2f", names.get(i), median(jvm[i]),
          names.get(i), median(dbCpu[i])));
    }
    System.out.println(med);
    env.close();
    System.exit(0);
  }

  /**
   * COPY of the rows straight into gpu, encoded by the sink's own encoder in the given format, in
   * COPY statements of {@code batch} rows, each in its own transaction; the encoding is timed too.
   */
  static Rate plainCopy(SinkTestEnv env, String db, List<GpuSample> records, int batch, CopyFormat format) throws Exception {
    String url = env.pg.createDatabase(db);
    double secs;
    long jvm0;
    long jvm1;
    long db0;
    try (Connection c = new io.fleetscope.sink.db.Database(url, "postgres", "", "").open()) {
      Migrator.migrate(c);
      TableWriter w = TableWriter.create(c, io.fleetscope.sink.write.Tables.forTopic(Topics.GPU),
          Topics.require(Topics.GPU).schema(), format, new WritePaths());
      String cols = String.join(", ", w.encoder().columns().stream().map(io.fleetscope.sink.write.Column::sql).toList());
      String sql = "COPY gpu (" + cols + ") FROM STDIN WITH (FORMAT " + (w.binary() ? "binary" : "csv") + ")";
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      c.setAutoCommit(false);
      db0 = serverCpuNanos(env);
      jvm0 = jvmCpuNanos();
      long start = System.nanoTime();
      for (int i = 0; i < records.size(); i += batch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (w.binary()) {
          out.write(BINARY_HEADER);
        }
        for (GpuSample g : records.subList(i, Math.min(records.size(), i + batch))) {
          out.write(w.encode(g));
        }
        if (w.binary()) {
          out.write(new byte[] {(byte) 0xff, (byte) 0xff});
        }
        copy.copyIn(sql, new ByteArrayInputStream(out.toByteArray()));
        c.commit();
      }
      secs = (System.nanoTime() - start) / 1e9;
      jvm1 = jvmCpuNanos();
    }
    long db1 = serverCpuNanosAfterClose(env);
    int n = records.size();
    return new Rate(n / secs, (jvm1 - jvm0) / 1e3 / n, perRowUs(db0, db1, n));
  }

  /** COPY BINARY header: signature, flags, header extension length. */
  static final byte[] BINARY_HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};

  /**
   * The sink with the given settings over its own database. Rate = rows / (last offset commit -
   * first non-empty poll); the database is migrated before, as for the COPYs.
   */
  static Rate throughSink(SinkTestEnv env, String db, int rows, Map<String, String> settings, WritePaths paths)
      throws Exception {
    String url = env.pg.createDatabase(db);
    Map<String, String> m = new java.util.HashMap<>(settings);
    m.put(SinkConfig.JDBC_URL.name(), url);
    m.put(SinkConfig.GROUP_ID.name(), "bench-" + db + "-" + System.nanoTime());
    SinkConfig config = env.config(m);
    double steady;
    long jvm0;
    long jvm1;
    long db0;
    try (Connection c = new io.fleetscope.sink.db.Database(url, "postgres", "", "").open()) {
      Migrator.migrate(c); // as for the COPYs: the schema is there before the clock starts
    }
    Thread.sleep(300);
    String[] timing = new String[1];
    try (SinkService sink = new SinkService(config)) {
      db0 = serverCpuNanos(env);
      jvm0 = jvmCpuNanos();
      sink.start();
      SinkTestEnv.await("all rows through the sink", Duration.ofMinutes(5), () -> sink.metrics().records.get() >= rows);
      jvm1 = jvmCpuNanos();
      steady = (sink.metrics().lastCommitNanos.get() - sink.metrics().firstPollNanos.get()) / 1e9;
      var sm = sink.metrics();
      timing[0] = String.format("poll_ms=%d decode_ms=%d write_ms=%d db_commit_ms=%d offset_commit_ms=%d batches=%d",
          sm.pollNanos.get() / 1_000_000, sm.decodeNanos.get() / 1_000_000, sm.writeNanos.get() / 1_000_000,
          sm.dbCommitNanos.get() / 1_000_000, sm.offsetCommitNanos.get() / 1_000_000, sm.batches.get());
      paths.direct.addAndGet(sink.metrics().paths.direct.get());
      paths.staging.addAndGet(sink.metrics().paths.staging.get());
      paths.fallbacks.addAndGet(sink.metrics().paths.fallbacks.get());
      try (Connection c = new io.fleetscope.sink.db.Database(url, "postgres", "", "").open();
           var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM gpu")) {
        rs.next();
        if (rs.getLong(1) != rows) {
          throw new IllegalStateException("sink stored " + rs.getLong(1) + " rows, expected " + rows);
        }
      }
    }
    long db1 = serverCpuNanosAfterClose(env);
    System.out.println("bench sink_timing db=" + db + " " + timing[0]);
    return new Rate(rows / steady, (jvm1 - jvm0) / 1e3 / rows, perRowUs(db0, db1, rows));
  }

  static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /**
   * CPU time of the database server in ns: the postmaster's own and reaped children's time plus
   * that of its live children (backends, background workers), from /proc; -1 if unreadable. A
   * backend's time moves into the postmaster's once it exits, so read this after closing.
   */
  static long serverCpuNanos(SinkTestEnv env) {
    long pm = env.pg.pid();
    if (pm <= 0) {
      return -1;
    }
    long ticks = 0;
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        String[] f;
        try {
          String stat = Files.readString(p.resolve("stat"));
          f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
          continue; // exited meanwhile
        }
        // f[0] is field 3 (state): ppid = f[1], utime = f[11], stime = f[12], cutime = f[13], cstime = f[14]
        long pid = Long.parseLong(name);
        if (pid == pm) {
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } else if (Long.parseLong(f[1]) == pm) {
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * 10_000_000L; // USER_HZ = 100
  }

  /** {@link #serverCpuNanos} after the closed connections' backends have had time to exit. */
  static long serverCpuNanosAfterClose(SinkTestEnv env) throws InterruptedException {
    Thread.sleep(300);
    return serverCpuNanos(env);
  }

  static double perRowUs(long before, long after, int rows) {
    return before < 0 || after < 0 ? Double.NaN : (after - before) / 1e3 / rows;
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0];
    } catch (IOException e) {
      return "unknown";
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
