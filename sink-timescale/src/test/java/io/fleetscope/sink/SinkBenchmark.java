package io.fleetscope.sink;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.sink.write.TableWriter;
import java.io.StringReader;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Benchmark (not a test): rows/s into the gpu hypertable through the whole sink (Kafka consumer,
 * Avro decoding, COPY into staging, INSERT ... ON CONFLICT DO NOTHING, offset commit) against
 * plain COPY of the same rows into the same table, on the same TestServices broker and database
 * server, alternating, RUNS times each; prints medians and the ratio.
 *
 * <p>Run: see BENCHMARKS.md (sink-timescale). Arguments: [rows (default 400000)] [runs (default 3)].
 */
public final class SinkBenchmark {
  private SinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 400_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
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
    System.out.println("bench produced rows=" + rows + " topic=" + Topics.GPU);

    double[] copyRate = new double[runs];
    double[] copyBatchedRate = new double[runs];
    double[] sinkRate = new double[runs];
    double[] sinkWallRate = new double[runs];
    double[] sink1Rate = new double[runs];
    double[] directRate = new double[runs];
    double[] direct1Rate = new double[runs];
    for (int r = 0; r < runs; r++) {
      copyRate[r] = plainCopy(env, "sink_bench_copy_" + r, records, rows);
      copyBatchedRate[r] = plainCopy(env, "sink_bench_copyb_" + r, records, 5000);
      double[] s = throughSink(env, "sink_bench_sink_" + r, rows, 2, "staging");
      sinkRate[r] = s[0];
      sinkWallRate[r] = s[1];
      sink1Rate[r] = throughSink(env, "sink_bench_sink1_" + r, rows, 1, "staging")[0];
      directRate[r] = throughSink(env, "sink_bench_direct_" + r, rows, 2, "direct-first")[0];
      direct1Rate[r] = throughSink(env, "sink_bench_direct1_" + r, rows, 1, "direct-first")[0];
      System.out.printf("bench run=%d copy_rows_per_s=%.0f copy_batched_rows_per_s=%.0f sink_rows_per_s=%.0f sink_wall_rows_per_s=%.0f "
          + "sink_1worker_rows_per_s=%.0f direct_first_rows_per_s=%.0f direct_first_1worker_rows_per_s=%.0f%n", r + 1, copyRate[r],
          copyBatchedRate[r], sinkRate[r], sinkWallRate[r], sink1Rate[r], directRate[r], direct1Rate[r]);
    }
    double mc = median(copyRate);
    double mcb = median(copyBatchedRate);
    double ms = median(sinkRate);
    double msw = median(sinkWallRate);
    double ms1 = median(sink1Rate);
    double md = median(directRate);
    double md1 = median(direct1Rate);
    System.out.printf("bench median rows=%d runs=%d copy_rows_per_s=%.0f copy_batched_rows_per_s=%.0f sink_rows_per_s=%.0f "
        + "sink_wall_rows_per_s=%.0f sink_1worker_rows_per_s=%.0f sink_vs_copy=%.2f sink_vs_copy_batched=%.2f "
        + "sink_1worker_vs_copy_batched=%.2f%n", rows, runs, mc, mcb, ms, msw, ms1, ms / mc, ms / mcb, ms1 / mcb);
    System.out.printf("bench median direct_first_rows_per_s=%.0f direct_first_1worker_rows_per_s=%.0f direct_first_vs_copy=%.2f "
        + "direct_first_vs_copy_batched=%.2f direct_first_1worker_vs_copy_batched=%.2f%n", md, md1, md / mc, md / mcb, md1 / mcb);
    env.close();
    System.exit(0);
  }

  /** COPY of the sink's own CSV encoding of the rows straight into gpu, in COPY statements of {@code batch} rows. */
  static double plainCopy(SinkTestEnv env, String db, List<GpuSample> records, int batch) throws Exception {
    String url = env.pg.createDatabase(db);
    try (Connection c = new io.fleetscope.sink.db.Database(url, "postgres", "", "").open()) {
      Migrator.migrate(c);
      TableWriter w = TableWriter.create(c, io.fleetscope.sink.write.Tables.forTopic(Topics.GPU), Topics.require(Topics.GPU).schema());
      String cols = String.join(", ", w.encoder().columns().stream().map(io.fleetscope.sink.write.Column::sql).toList());
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      c.setAutoCommit(false);
      long start = System.nanoTime();
      for (int i = 0; i < records.size(); i += batch) {
        StringBuilder sb = new StringBuilder();
        for (GpuSample g : records.subList(i, Math.min(records.size(), i + batch))) {
          sb.append(w.encode(g));
        }
        copy.copyIn("COPY gpu (" + cols + ") FROM STDIN WITH (FORMAT csv)", new StringReader(sb.toString()));
        c.commit();
      }
      double secs = (System.nanoTime() - start) / 1e9;
      return records.size() / secs;
    }
  }

  /** Returns {rows/s from the first poll to the last commit, rows/s from start() to the last row}. */
  static double[] throughSink(SinkTestEnv env, String db, int rows, int workers, String mode) throws Exception {
    String url = env.pg.createDatabase(db);
    SinkConfig config = env.config(Map.of(SinkConfig.JDBC_URL.name(), url, SinkConfig.GROUP_ID.name(), "bench-" + db
        + "-" + System.nanoTime(), SinkConfig.WORKERS.name(), String.valueOf(workers),
        SinkConfig.COPY_MODE.name(), mode));
    try (SinkService sink = new SinkService(config)) {
      sink.start();
      long start = System.nanoTime();
      SinkTestEnv.await("all rows through the sink", Duration.ofMinutes(5), () -> sink.metrics().records.get() >= rows);
      double wall = (System.nanoTime() - start) / 1e9;
      double steady = (sink.metrics().lastCommitNanos.get() - sink.metrics().firstPollNanos.get()) / 1e9;
      try (Connection c = new io.fleetscope.sink.db.Database(url, "postgres", "", "").open();
           var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM gpu")) {
        rs.next();
        if (rs.getLong(1) != rows) {
          throw new IllegalStateException("sink stored " + rs.getLong(1) + " rows, expected " + rows);
        }
      }
      return new double[] {rows / steady, rows / wall};
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
