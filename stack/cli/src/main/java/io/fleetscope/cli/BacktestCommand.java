package io.fleetscope.cli;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.loadgen.output.LabelsWriter;
import io.fleetscope.loadgen.output.ScenarioBundle;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.score.FiringAnomaly;
import io.fleetscope.loadgen.score.ScoreRow;
import io.fleetscope.loadgen.score.Scorer;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.config.SettingsDiff;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.streams.CorrelatorConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code backtest DIR... [--config FILE] [--scenario NAME ...]}: today's analytics (or those of
 * {@code --config}) and correlator over each bundle, scored per alert name against the bundle's
 * ground-truth labels when the simulator wrote it, else against the anomalies it recorded: recall,
 * precision, detection delay (the scorer of {@code bench detect}); then its recorded incidents
 * against the reproduced ones: incidents and pages per alert name, and those that appear, disappear
 * or change. {@code --scenario} first writes simulator scenarios as bundles under {@code --work}.
 * Exit code 0; 1 when a bundle cannot be read or analysed.
 */
@Command(name = "backtest", sortOptions = false,
    description = "Scores today's analytics (or --config) on recorded bundles and simulator scenarios: recall, precision,"
        + " detection delay and pages per alert name, and the incidents that appear or disappear.")
final class BacktestCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Parameters(paramLabel = "DIR", arity = "0..*", description = "bundles (export, incident export, or written by --scenario)")
  List<Path> dirs = new ArrayList<>();

  @Option(names = "--config", paramLabel = "FILE.yaml", description = "analytics settings to score (default: the built-in ones)")
  Path config;

  @Option(names = "--scenario", paramLabel = "NAME", description = "also write this simulator scenario as a bundle and score it (repeatable)")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--nodes", paramLabel = "N", description = "fleet size of --scenario bundles (default: ${DEFAULT-VALUE})")
  int nodes = 8;

  @Option(names = "--seed", paramLabel = "S", description = "simulator seed of --scenario bundles (default: ${DEFAULT-VALUE})")
  long seed = 42;

  @Option(names = "--work", paramLabel = "DIR", description = "where --scenario bundles go (default: ${DEFAULT-VALUE})")
  Path work = Path.of(".fleetscope/backtest");

  @Option(names = "--tolerance", paramLabel = "DURATION",
      description = "how far a detection may be from its label's window and still count (default: 30s)")
  Duration tolerance = Duration.ofMillis(Scorer.DEFAULT_TOLERANCE_MS);

  @Option(names = "--granularity", paramLabel = "DURATION",
      description = "how far apart a recorded and a reproduced incident may start and still be the same (default: 1m)")
  Duration granularity = Duration.ofMinutes(1);

  private final PrintStream out;

  BacktestCommand(PrintStream out) {
    this.out = out;
  }

  /** One bundle's scores and incident comparison. */
  record Outcome(String bundle, String expected, List<ScoreRow> rows, IncidentDiff incidents, List<JsonLines.Line> produced,
      List<SettingsDiff.Difference> analyticsSettings, List<SettingsDiff.Difference> correlatorSettings) {}

  @Override
  public Integer call() throws Exception {
    List<Path> all = new ArrayList<>(dirs);
    for (String s : scenarios) {
      Path dir = work.resolve(s + "-seed" + seed + "-nodes" + nodes);
      if (!BundleReader.isBundle(dir)) {
        Manifest m = ScenarioBundle.write(s, nodes, seed, dir);
        out.println("backtest wrote scenario=" + s + " bundle=" + dir + " records=" + m.records());
      }
      all.add(dir);
    }
    if (all.isEmpty()) {
      throw new IllegalArgumentException("name at least one bundle DIR or --scenario NAME");
    }
    List<ScoreRow> rows = new ArrayList<>();
    for (Path dir : all) {
      Outcome o = score(BundleReader.open(dir));
      rows.addAll(o.rows());
      out.println("backtest bundle=" + dir + " expected=" + o.expected());
      out.println("backtest settings=analytics against=" + recordedName(dir, Manifest.ANALYTICS_CONFIG) + " "
          + SettingsDiff.describe(o.analyticsSettings()));
      out.println("backtest settings=correlator against=" + recordedName(dir, Manifest.CORRELATOR_CONFIG) + " "
          + SettingsDiff.describe(o.correlatorSettings()));
      out.print(o.incidents().table());
    }
    out.print(Scorer.table(rows));
    return 0;
  }

  /** Analyses one bundle with this command's settings and scores it. */
  Outcome score(BundleReader bundle) throws Exception {
    CorrelatorConfig correlatorNow = CorrelatorConfig.defaults();
    BundleIncidents correlator = new BundleIncidents(correlatorNow);
    // today's analytics: --config, else the built-in settings (not the bundle's recorded ones)
    AnalyticsConfig analyticsNow = config != null ? AnalyticsConfig.load(config) : AnalyticsConfig.defaults();
    List<JsonLines.Line> now = AnalyzeMain.analyzeBundle(bundle, analyticsNow, config != null ? config.toString() : "built-in",
        null, bundle.manifest().to().toEpochMilli(), null, correlator);
    String name = bundle.dir().getFileName().toString();
    List<FiringAnomaly> fired = FiringAnomaly.parse(now.stream().filter(l -> Topics.ANOMALIES.equals(l.topic()))
        .map(JsonLines::toJson).toList(), name);
    var labelsText = bundle.text(BundleRole.LABELS);
    List<GroundTruthLabel> labels;
    String expected;
    if (labelsText.isPresent()) {
      labels = labelsText.get().lines().filter(l -> !l.isBlank()).map(LabelsWriter::parse).toList();
      expected = "labels";
    } else {
      labels = recordedAsLabels(name, bundle);
      expected = "recorded";
    }
    List<ScoreRow> rows = new Scorer(tolerance.toMillis()).score(name, labels, fired);
    List<Alert> recorded = bundle.lines(r -> r == BundleRole.ALERTS).stream().map(l -> (Alert) l.value()).toList();
    List<Alert> reproduced = now.stream().filter(l -> Topics.ALERTS.equals(l.topic())).map(l -> (Alert) l.value()).toList();
    IncidentDiff diff = IncidentDiff.of(IncidentSummary.of(recorded), IncidentSummary.of(reproduced), granularity.toMillis());
    return new Outcome(name, expected, rows, diff, now, AnalyzeMain.differences(bundle, analyticsNow),
        BundleIncidents.differences(bundle, correlatorNow));
  }

  private static String recordedName(Path dir, String file) {
    return java.nio.file.Files.isRegularFile(dir.resolve(file)) ? file : "built-in(none-recorded)";
  }

  /** Each recorded firing episode as a label on its exact labels, from its start to its end (or the bundle's). */
  static List<GroundTruthLabel> recordedAsLabels(String name, BundleReader bundle) {
    List<GroundTruthLabel> out = new ArrayList<>();
    Map<String, Long> ends = new java.util.HashMap<>();
    List<Anomaly> recorded = bundle.lines(r -> r == BundleRole.ANOMALIES).stream().map(l -> (Anomaly) l.value()).toList();
    for (Anomaly a : recorded) {
      if (!AlertStatus.isFiring(a.getStatus()) && a.getEndsAt() != null) {
        ends.merge(a.getFingerprint() + "@" + a.getStartsAt(), a.getEndsAt(), Math::max);
      }
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Anomaly a : recorded) {
      String episode = a.getFingerprint() + "@" + a.getStartsAt();
      if (!AlertStatus.isFiring(a.getStatus()) || !seen.add(episode)) {
        continue;
      }
      List<String> match = a.getLabels().keySet().stream().filter(k -> !k.equals(AlertLabels.SEVERITY)).sorted().toList();
      out.add(new GroundTruthLabel(name, a.getFingerprint(), "recorded", a.getLabels().get(AlertLabels.ALERTNAME),
          Map.copyOf(a.getLabels()), match, a.getStartsAt(), ends.getOrDefault(episode, bundle.manifest().to().toEpochMilli()),
          List.of()));
    }
    return out;
  }
}
