package io.fleetscope.loadgen;

import io.fleetscope.loadgen.bench.Analyzer;
import io.fleetscope.loadgen.bench.CommandAnalyzer;
import io.fleetscope.loadgen.bench.DetectBench;
import io.fleetscope.loadgen.bench.GeneratorBench;
import io.fleetscope.loadgen.bench.PipelineBench;
import io.fleetscope.loadgen.bench.ReflectiveAnalyzer;
import io.fleetscope.loadgen.scenario.Durations;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.score.Scorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code bench} command.
 *
 * <pre>
 * bench detect [--nodes 8] [--seed 1] [--scenarios a,b,...] [--work DIR] [--tolerance 30s]
 *              [--analyze-cmd 'CMD {in} {out}'] [--report FILE]
 * bench pipeline --gpus N [--duration 5m] [--warmup 60s] [--kafka 127.0.0.1:19092]
 *              [--registry http://127.0.0.1:18081] [--state-dir .fleetscope] [--pid NAME=PID ...]
 *              [--out-dir .fleetscope/bench] [--scenario pipeline-probes] [--seed 1]
 * bench generator [--gpus 20000] [--simulated 30s] [--runs 3] [--modes sim,json,avro] [--report FILE]
 * </pre>
 * Without --analyze-cmd, detect calls flink-jobs' AnalyzeMain in this JVM (it must be on the classpath,
 * as it is under ./fleetscope). Defaults are the local endpoints of ARCHITECTURE.md.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    int rc;
    try {
      rc = run(args);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("bench: error: " + e.getMessage());
      rc = 2;
    }
    if (rc != 0) {
      System.exit(rc);
    }
  }

  public static int run(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: bench detect | pipeline --gpus N | generator");
    }
    Map<String, String> o = new LinkedHashMap<>();
    Map<String, Long> pids = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("bad argument '" + args[i] + "' (options are --name value)");
      }
      if (args[i].equals("--pid")) {
        String[] kv = args[++i].split("=", 2);
        if (kv.length != 2) {
          throw new IllegalArgumentException("--pid wants NAME=PID, got " + args[i]);
        }
        pids.put(kv[0], Long.parseLong(kv[1]));
      } else {
        o.put(args[i], args[++i]);
      }
    }
    return switch (args[0]) {
      case "detect" -> detect(o);
      case "pipeline" -> pipeline(o, pids);
      case "generator" -> generator(o);
      default -> throw new IllegalArgumentException("unknown bench '" + args[0] + "' (detect, pipeline, generator)");
    };
  }

  private static void known(Map<String, String> o, String... keys) {
    List<String> k = Arrays.asList(keys);
    for (String key : o.keySet()) {
      if (!k.contains(key)) {
        throw new IllegalArgumentException("unknown option " + key + "; known: " + k);
      }
    }
  }

  private static int detect(Map<String, String> o) throws Exception {
    known(o, "--nodes", "--seed", "--scenarios", "--work", "--tolerance", "--analyze-cmd", "--report");
    List<String> scenarios = o.containsKey("--scenarios") ? List.of(o.get("--scenarios").split(","))
        : ScenarioLoader.builtinNames().stream().filter(n -> !n.equals("demo")).toList();
    Analyzer analyzer = o.containsKey("--analyze-cmd") ? new CommandAnalyzer(o.get("--analyze-cmd"), 1800)
        : ReflectiveAnalyzer.find();
    DetectBench.Options opts = new DetectBench.Options(scenarios, Integer.parseInt(o.getOrDefault("--nodes", "8")),
        Long.parseLong(o.getOrDefault("--seed", "1")), Path.of(o.getOrDefault("--work", ".fleetscope/bench/detect")),
        o.containsKey("--tolerance") ? Durations.parse(o.get("--tolerance")).toMillis() : Scorer.DEFAULT_TOLERANCE_MS);
    var results = new DetectBench(opts, analyzer).run();
    String report = DetectBench.report(results);
    System.out.print(report);
    if (o.containsKey("--report")) {
      Files.writeString(Path.of(o.get("--report")), report);
    }
    return results.stream().anyMatch(r -> r.error() != null) ? 1 : 0;
  }

  private static int pipeline(Map<String, String> o, Map<String, Long> pids) throws Exception {
    known(o, "--gpus", "--duration", "--warmup", "--kafka", "--registry", "--state-dir", "--out-dir", "--scenario",
        "--seed");
    if (!o.containsKey("--gpus")) {
      throw new IllegalArgumentException("bench pipeline needs --gpus N");
    }
    PipelineBench.Options opts = new PipelineBench.Options(Integer.parseInt(o.get("--gpus")),
        Durations.parse(o.getOrDefault("--duration", "5m")), Durations.parse(o.getOrDefault("--warmup", "60s")),
        o.getOrDefault("--kafka", "127.0.0.1:19092"), o.getOrDefault("--registry", LoadgenOptions.DEFAULT_REGISTRY),
        Path.of(o.getOrDefault("--state-dir", ".fleetscope")), pids,
        Path.of(o.getOrDefault("--out-dir", ".fleetscope/bench")), o.getOrDefault("--scenario", "pipeline-probes"),
        Long.parseLong(o.getOrDefault("--seed", "1")));
    new PipelineBench(opts).run();
    System.out.print(java.nio.file.Files.readString(opts.outDir().resolve("pipeline-" + opts.gpus() + "-summary.md")));
    return 0;
  }

  private static int generator(Map<String, String> o) throws Exception {
    known(o, "--gpus", "--simulated", "--runs", "--modes", "--report");
    int gpus = Integer.parseInt(o.getOrDefault("--gpus", "20000"));
    long simS = Durations.parse(o.getOrDefault("--simulated", "30s")).toSeconds();
    int runs = Integer.parseInt(o.getOrDefault("--runs", "3"));
    List<String> modes = List.of(o.getOrDefault("--modes", "sim,json,avro").split(","));
    String md = GeneratorBench.markdown(GeneratorBench.run(gpus, simS, runs, modes), runs);
    System.out.print(md);
    if (o.containsKey("--report")) {
      Files.writeString(Path.of(o.get("--report")), md);
    }
    return 0;
  }
}
