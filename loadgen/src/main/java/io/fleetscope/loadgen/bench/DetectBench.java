package io.fleetscope.loadgen.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fleetscope.loadgen.output.JsonLinesSink;
import io.fleetscope.loadgen.output.LabelsWriter;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.score.FiringAnomaly;
import io.fleetscope.loadgen.score.ScoreRow;
import io.fleetscope.loadgen.score.Scorer;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code bench detect}: every scenario -> records + labels -> analyze -> anomalies -> scores. */
public final class DetectBench {
  private static final Logger log = LoggerFactory.getLogger(DetectBench.class);

  /** What to run: scenarios, fleet size, seed, where files go, the scorer's tolerance. */
  /**
   * @param intervalMs sample interval of the simulated agents (the GPU, link and storage samples; 1 s
   *     by default, 10 s as in the soak); the simulator's physics still steps every second
   */
  public record Options(List<String> scenarios, int nodes, long seed, Path workDir, long toleranceMs, long intervalMs) {
    public Options(List<String> scenarios, int nodes, long seed, Path workDir, long toleranceMs) {
      this(scenarios, nodes, seed, workDir, toleranceMs, SimConfig.DEFAULT_INTERVAL_MS);
    }
  }

  /** Scores of one scenario, or the error that stopped it. */
  public record Result(String scenario, List<ScoreRow> rows, String error, long records, long analyzeMs) {}

  private static final ObjectMapper ANALYTICS_YAML = new ObjectMapper(new YAMLFactory());
  private final Options o;
  private final Analyzer analyzer;

  public DetectBench(Options o, Analyzer analyzer) {
    this.o = o;
    this.analyzer = analyzer;
  }

  public List<Result> run() throws IOException {
    Files.createDirectories(o.workDir());
    List<Result> out = new ArrayList<>();
    Scorer scorer = new Scorer(o.toleranceMs());
    for (String name : o.scenarios()) {
      Scenario sc = ScenarioLoader.load(name);
      SimConfig cfg = SimConfig.of(Math.max(o.nodes(), sc.minNodes()), sc, o.seed());
      if (o.intervalMs() != cfg.intervalMs()) {
        cfg = cfg.withInterval(o.intervalMs());
      }
      FleetSimulator sim = new FleetSimulator(cfg);
      Path in = o.workDir().resolve(name + ".jsonl");
      Path labelsFile = o.workDir().resolve(name + ".labels.jsonl");
      Path anomalies = o.workDir().resolve(name + ".analyzed.jsonl");
      long n = 0;
      try (JsonLinesSink sink = JsonLinesSink.toFile(in)) {
        for (var r : sim) {
          sink.accept(r);
          n++;
        }
      }
      List<GroundTruthLabel> labels = sim.labels();
      LabelsWriter.write(labelsFile, labels);
      long t0 = System.nanoTime();
      try {
        Files.deleteIfExists(anomalies);
        Path config = null;
        if (!sc.analytics().isEmpty()) {
          config = o.workDir().resolve(name + ".analytics.yaml");
          ANALYTICS_YAML.writeValue(config.toFile(), sc.analytics());
        }
        analyzer.analyze(in, anomalies, config);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        List<ScoreRow> rows = scorer.score(name, labels, FiringAnomaly.read(anomalies));
        log.info("bench detect scenario={} records={} labels={} analyze_ms={} rows={}", name, n, labels.size(), ms,
            rows.size());
        out.add(new Result(name, rows, null, n, ms));
      } catch (Exception e) {
        log.warn("bench detect scenario={} failed reason={}", name, e.getMessage());
        out.add(new Result(name, List.of(), e.getMessage(), n, (System.nanoTime() - t0) / 1_000_000));
      }
    }
    return out;
  }

  /** The table of all rows, then one line per failed scenario. */
  public static String report(List<Result> results) {
    List<ScoreRow> rows = new ArrayList<>();
    StringBuilder errors = new StringBuilder();
    for (Result r : results) {
      rows.addAll(r.rows());
      if (r.error() != null) {
        errors.append("FAILED ").append(r.scenario()).append(": ").append(r.error().lines().findFirst().orElse(""))
            .append('\n');
      }
      if (r.error() == null && r.rows().isEmpty()) {
        errors.append("(").append(r.scenario()).append(": nothing expected, nothing fired)\n");
      }
    }
    return Scorer.table(rows) + errors;
  }
}
