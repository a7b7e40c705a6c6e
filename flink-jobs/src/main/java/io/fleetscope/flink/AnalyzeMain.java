package io.fleetscope.flink;

import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.io.CollectedOutput;
import io.fleetscope.flink.io.CollectionSource;
import io.fleetscope.flink.io.OutputOrdering;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.JsonLines;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleetscope analyze --in FILE [--config FILE] --out FILE.jsonl [--now EPOCH_MS] [--only a,b]}:
 * runs every analytic in bounded (batch) mode over a JSON-lines file and writes the derived
 * records, anomalies and dead letters it produced as JSON lines, sorted (topic, ts, key, text).
 * {@code --now} fixes the wall clock used for far-future checks and dead-letter times (default:
 * the time the run starts), which makes the output byte-for-byte reproducible.
 */
public final class AnalyzeMain {
  private static final Logger log = LoggerFactory.getLogger(AnalyzeMain.class);

  private AnalyzeMain() {}

  public static void main(String[] args) throws Exception {
    Path in = null;
    Path out = null;
    Path config = null;
    Long now = null;
    List<String> only = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--in" -> { in = Path.of(need(a, v)); i++; }
        case "--out" -> { out = Path.of(need(a, v)); i++; }
        case "--config" -> { config = Path.of(need(a, v)); i++; }
        case "--now" -> { now = Long.parseLong(need(a, v)); i++; }
        case "--only" -> { only = Arrays.asList(need(a, v).split(",")); i++; }
        case "-h", "--help" -> { usage(); return; }
        default -> throw new IllegalArgumentException("unknown argument " + a + "; see --help");
      }
    }
    if (in == null || out == null) {
      usage();
      System.exit(2);
      return;
    }
    AnalyticsConfig cfg = config == null ? AnalyticsConfig.defaults() : AnalyticsConfig.load(config);
    WallClock clock = WallClock.fixed(now != null ? now : System.currentTimeMillis());
    List<Analytic> jobs = only == null ? AnalyticCatalog.all() : AnalyticCatalog.select(only);
    long t0 = System.nanoTime();
    CollectionSource source = CollectionSource.fromJsonLines(in, clock);
    List<JsonLines.Line> lines = run(source, cfg, jobs, clock, RuntimeExecutionMode.BATCH);
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (JsonLines.Line l : lines) {
        w.write(JsonLines.toJson(l));
        w.write('\n');
      }
    }
    log.info("analyze done in={} records={} out={} lines={} ms={}", in, source.size(), out, lines.size(),
        (System.nanoTime() - t0) / 1_000_000);
  }

  /** Runs the analytics over a bounded source on a local MiniCluster; the sorted output lines. */
  public static List<JsonLines.Line> run(CollectionSource source, AnalyticsConfig cfg, List<Analytic> jobs,
      WallClock clock, RuntimeExecutionMode mode) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(cfg.pipeline().parallelism(), conf);
    env.setRuntimeMode(mode);
    CollectedOutput sink = new CollectedOutput();
    new FleetAnalytics(source, sink, cfg, jobs, clock).build(env);
    List<SpecificRecord> records = new ArrayList<>(sink.run(env, "fleetscope-analyze"));
    records.addAll(source.unrouted(FleetAnalytics.RAW_TOPICS).stream()
        .filter(r -> r instanceof io.fleetscope.avro.DeadLetter).toList());
    return OutputOrdering.lines(records);
  }

  private static String need(String flag, String v) {
    if (v == null) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return v;
  }

  private static void usage() {
    System.err.println("usage: analyze --in FILE.jsonl [--config FILE.yaml] --out FILE.jsonl [--now EPOCH_MS] [--only rail,ecc,...]");
  }
}
