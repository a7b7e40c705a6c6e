package io.fleetscope.flink;

import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.io.CollectedOutput;
import io.fleetscope.flink.io.CollectionSource;
import io.fleetscope.flink.io.OutputOrdering;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.config.SettingsDiff;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fleetscope analyze --in FILE|DIR [--config FILE] --out FILE.jsonl [--now EPOCH_MS] [--only a,b]}:
 * runs every analytic in bounded (batch) mode over a JSON-lines file, or over the raw and state
 * records of a bundle directory (its recorded analytics settings unless --config names others),
 * and writes the derived records, anomalies and dead letters it produced as JSON lines, sorted
 * (topic, ts, key, text); then, when the command was built with a {@link Followup} (the
 * {@code fleetscope} command's: the correlator), what that adds (the incidents).
 * {@code --now} fixes the wall clock used for far-future checks and dead-letter times (default:
 * the time the run starts), which makes the output byte-for-byte reproducible.
 */
@Command(name = "analyze", sortOptions = false,
    description = "Runs every analytic in bounded (batch) mode over a JSON-lines file and writes what they produced,"
        + " sorted, as JSON lines.")
public final class AnalyzeMain implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(AnalyzeMain.class);

  @Mixin HelpOption help;

  @Option(names = "--in", paramLabel = "FILE.jsonl|DIR", required = true,
      description = "records to analyze: JSON lines, or a bundle directory (export, incident export)")
  Path in;

  @Option(names = "--config", paramLabel = "FILE.yaml", description = "analytics settings (default: the built-in ones)")
  Path config;

  @Option(names = "--out", paramLabel = "FILE.jsonl", required = true, description = "where the output goes")
  Path out;

  @Option(names = "--now", paramLabel = "EPOCH_MS", description = "fixes the wall clock (default: when the run starts)")
  Long now;

  @Option(names = "--only", paramLabel = "A,B", split = ",", description = "run only these analytics (default: every one)")
  List<String> only;

  /** What runs after the analytics on their inputs and outputs (the correlator), adding lines to the output. */
  public interface Followup {
    List<JsonLines.Line> after(List<SpecificRecord> inputs, List<JsonLines.Line> produced) throws Exception;

    /** Called with the bundle before the analytics run on it (to compare its recorded settings with its own). */
    default void before(BundleReader bundle) {}
  }

  private final Followup followup;

  /** The analytics only. */
  public AnalyzeMain() {
    this(null);
  }

  /** The analytics, then {@code followup} (null: none). */
  public AnalyzeMain(Followup followup) {
    this.followup = followup;
  }

  public static void main(String[] args) {
    int rc = CommandLines.execute(new AnalyzeMain(), args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  @Override
  public Integer call() throws Exception {
    if (BundleReader.isBundle(in)) {
      analyzeBundle(BundleReader.open(in), config, out, now, only, followup);
    } else {
      analyzeFile(in, config, out, now, only);
    }
    return 0;
  }

  /**
   * Every analytic (or those in {@code only}) over a bundle's raw and state records, with the settings
   * in {@code config}, else the bundle's recorded ones, else the defaults; then {@code followup}'s lines.
   */
  public static List<JsonLines.Line> analyzeBundle(BundleReader bundle, Path config, Path out, Long now, List<String> only,
      Followup followup) throws Exception {
    return analyzeBundle(bundle, config != null ? AnalyticsConfig.load(config) : null, config != null ? config.toString() : null,
        out, now, only, followup);
  }

  /** The analytics settings a bundle recorded, else the built-in ones. */
  public static AnalyticsConfig recorded(BundleReader bundle) {
    return bundle.text(Manifest.ANALYTICS_CONFIG).map(AnalyticsConfig::fromYaml).orElseGet(AnalyticsConfig::defaults);
  }

  /** Where {@code now} differs from the analytics settings the bundle recorded (the built-in ones when it recorded none). */
  public static List<SettingsDiff.Difference> differences(BundleReader bundle, AnalyticsConfig now) {
    return SettingsDiff.of(recorded(bundle).flat(), now.flat(), k -> true);
  }

  /**
   * As above with the settings given ({@code config}, named {@code configName} in the log), or null:
   * the bundle's recorded ones. Logs where the settings used differ from the recorded ones.
   */
  public static List<JsonLines.Line> analyzeBundle(BundleReader bundle, AnalyticsConfig config, String configName, Path out,
      Long now, List<String> only, Followup followup) throws Exception {
    AnalyticsConfig cfg = config != null ? config : recorded(bundle);
    log.info("analyze settings=analytics bundle={} used={} {}", bundle.text(Manifest.ANALYTICS_CONFIG).isPresent()
        ? Manifest.ANALYTICS_CONFIG : "none-recorded(built-in)", config != null ? configName : "bundle",
        SettingsDiff.describe(differences(bundle, cfg)));
    if (followup != null) {
      followup.before(bundle);
    }
    WallClock clock = WallClock.fixed(now != null ? now : System.currentTimeMillis());
    List<Analytic> jobs = only == null ? AnalyticCatalog.all() : AnalyticCatalog.select(only);
    long t0 = System.nanoTime();
    List<SpecificRecord> inputs = bundle.lines(BundleRole::isInput).stream().map(JsonLines.Line::value).toList();
    List<JsonLines.Line> lines = new ArrayList<>(run(new CollectionSource(inputs), cfg, jobs, clock, RuntimeExecutionMode.BATCH));
    if (followup != null) {
      lines.addAll(followup.after(inputs, lines));
    }
    if (out != null) {
      try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        for (JsonLines.Line l : lines) {
          w.write(JsonLines.toJson(l));
          w.write('\n');
        }
      }
    }
    log.info("analyze done in={} records={} out={} lines={} config={} ms={}", bundle.dir(), inputs.size(), out, lines.size(),
        config != null ? configName : bundle.text(Manifest.ANALYTICS_CONFIG).isPresent() ? "bundle" : "defaults",
        (System.nanoTime() - t0) / 1_000_000);
    return lines;
  }

  /**
   * The command's work: every analytic (or those in {@code only}, when not null) over the JSON lines
   * in {@code in} with the settings in {@code config} (null: the defaults) and the wall clock fixed
   * at {@code now} (null: the time the run starts); the output lines go to {@code out}.
   */
  public static void analyzeFile(Path in, Path config, Path out, Long now, List<String> only) throws Exception {
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
    List<SpecificRecord> records;
    try {
      new FleetAnalytics(source, sink, cfg, jobs, clock).build(env);
      records = new ArrayList<>(sink.run(env, "fleetscope-analyze"));
    } finally {
      source.close();
    }
    records.addAll(source.unrouted(FleetAnalytics.RAW_TOPICS).stream()
        .filter(r -> r instanceof io.fleetscope.avro.DeadLetter).toList());
    return OutputOrdering.lines(records);
  }
}
