package io.fleetscope.loadgen;

import io.fleetscope.loadgen.bench.Analyzer;
import io.fleetscope.loadgen.bench.CommandAnalyzer;
import io.fleetscope.loadgen.bench.DetectBench;
import io.fleetscope.loadgen.bench.GeneratorBench;
import io.fleetscope.loadgen.bench.PipelineBench;
import io.fleetscope.loadgen.bench.SoakBench;
import io.fleetscope.loadgen.bench.chaos.ChaosReport;
import io.fleetscope.loadgen.bench.chaos.ChaosRunner;
import io.fleetscope.loadgen.bench.chaos.FaultKind;
import io.fleetscope.loadgen.scenario.HealthySoak;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.score.Scorer;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.LocalEndpoints;
import io.fleetscope.schemas.cli.RegistryOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * The {@code bench} command: {@code detect} (detection scores of the batch analytics on every
 * scenario), {@code pipeline} (a paced fleet into the running local stack) and {@code generator}
 * (how fast the simulator alone is). {@code detect} runs the analytics through the {@link Analyzer}
 * it is given: {@code ./fleetscope} passes the analytics in its own JVM; without one,
 * {@code --analyze-cmd} names a command to run. {@code chaos} (faults injected into the whole local
 * pipeline) runs through the {@link ChaosRunner} the stack passes in.
 */
@Command(name = "bench", description = "Benchmarks: detection scores, the whole pipeline under load, the generator.",
    subcommands = {BenchCommand.Detect.class, BenchCommand.Pipeline.class, BenchCommand.Chaos.class,
        BenchCommand.Generator.class})
public final class BenchCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  private final Analyzer inProcessAnalyzer;
  private final ChaosRunner chaosRunner;

  /** {@code inProcessAnalyzer}: the batch analytics in this JVM, or null when there are none. */
  public BenchCommand(Analyzer inProcessAnalyzer) {
    this(inProcessAnalyzer, null);
  }

  /** {@code chaosRunner}: the stack's fault-injection suite, or null when this JVM has no stack. */
  public BenchCommand(Analyzer inProcessAnalyzer, ChaosRunner chaosRunner) {
    this.inProcessAnalyzer = inProcessAnalyzer;
    this.chaosRunner = chaosRunner;
  }

  @Override
  public Integer call() {
    throw new IllegalArgumentException("name a benchmark: detect, pipeline, chaos or generator (bench --help)");
  }

  /** {@code bench chaos}. */
  @Command(name = "chaos", sortOptions = false,
      description = {"Starts the local stack and the pipeline on their default ports, runs a simulated fleet with scripted"
          + " incidents, kills and restarts each service in turn, then counts: every raw record in TimescaleDB by"
          + " (node, agent_seq), the anomalies against a bounded analyze, the notifications per incident.",
          "Exits 1 when anything was lost, stored or paged twice, left unresolved or not recovered."})
  static final class Chaos implements Callable<Integer> {
    @ParentCommand BenchCommand parent;
    @Mixin HelpOption help;

    @Option(names = "--minutes", paramLabel = "N", description = "minutes of fleet (default: ${DEFAULT-VALUE})")
    double minutes = 10;

    @Option(names = "--nodes", paramLabel = "N", description = "simulated nodes of 8 GPUs (default: ${DEFAULT-VALUE})")
    int nodes = 8;

    @Option(names = "--seed", paramLabel = "S", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--faults", paramLabel = "A,B", split = ",", description = "faults in order (default: broker,"
        + " taskmanager, correlator, sink, postgres, registry, alertmanager, agent, spool-full; the last two run a real"
        + " node agent beside the simulated fleet, spool-full mounts a tmpfs for its spool and needs root)")
    List<String> faults;

    @Option(names = "--out-dir", paramLabel = "DIR", description = "where the report goes (default: ${DEFAULT-VALUE})")
    Path outDir = Path.of(".fleetscope/bench/chaos");

    @Override
    public Integer call() throws Exception {
      if (parent.chaosRunner == null) {
        throw new IllegalArgumentException("no local stack in this JVM: run it as ./fleetscope bench chaos");
      }
      List<FaultKind> kinds = faults == null ? List.of(FaultKind.values()) : faults.stream().map(FaultKind::parse).toList();
      ChaosReport r = parent.chaosRunner.run(new ChaosRunner.Options(minutes, nodes, seed, kinds, outDir));
      String text = r.text();
      System.out.print(text);
      Files.createDirectories(outDir);
      Files.writeString(outDir.resolve("chaos-report.md"), text);
      return r.passed() ? 0 : 1;
    }
  }

  /** {@code bench detect}. */
  @Command(name = "detect", sortOptions = false,
      description = "Every scenario -> records and labels -> the batch analytics -> anomalies -> scores per alert.")
  static final class Detect implements Callable<Integer> {
    @ParentCommand BenchCommand parent;
    @Mixin HelpOption help;

    @Option(names = "--nodes", paramLabel = "N", description = "simulated nodes per scenario (default: ${DEFAULT-VALUE})")
    int nodes = 8;

    @Option(names = "--seed", paramLabel = "S", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--scenarios", paramLabel = "A,B", split = ",",
        description = "scenarios to score (default: every built-in one but demo and chaos)")
    List<String> scenarios;

    @Option(names = "--interval", paramLabel = "DURATION",
        description = "sample interval of the scenarios' agents, e.g. 10s as in the soak (default: 1s)")
    Duration interval = Duration.ofSeconds(1);

    @Option(names = "--work", paramLabel = "DIR", description = "where records and outputs go (default: ${DEFAULT-VALUE})")
    Path work = Path.of(".fleetscope/bench/detect");

    @Option(names = "--tolerance", paramLabel = "DURATION",
        description = "how far a detection may be from its label's window and still count (default: 30s)")
    Duration tolerance = Duration.ofMillis(Scorer.DEFAULT_TOLERANCE_MS);

    @Option(names = "--analyze-cmd", paramLabel = "'CMD {in} {out}'",
        description = "run this command as the analytics instead of the ones in this JVM")
    String analyzeCmd;

    @Option(names = "--report", paramLabel = "FILE", description = "also write the report here")
    Path report;

    @Option(names = "--soak", paramLabel = "DURATION",
        description = "instead of the scenarios: the healthy soak (a healthy fleet doing what healthy fleets do) over"
            + " this simulated time, e.g. 24h; every firing anomaly is a false alarm")
    Duration soak;

    @Option(names = "--soak-nodes", paramLabel = "N", description = "nodes of 8 GPUs in the soak (default: ${DEFAULT-VALUE})")
    int soakNodes = HealthySoak.DEFAULT_NODES;

    @Option(names = "--soak-interval", paramLabel = "DURATION",
        description = "sample interval of the soak's agents (default: 10s)")
    Duration soakInterval = Duration.ofSeconds(10);

    @Option(names = "--soak-chunk", paramLabel = "DURATION",
        description = "simulated time per bounded analyze of the soak, each with a 10m warm-up before it (default: 2h)")
    Duration soakChunk = Duration.ofHours(2);

    @Option(names = "--soak-chunks", paramLabel = "K[,K...]", split = ",",
        description = "analyze only these chunks (0 is the first), e.g. to look again at the hours that fired; the"
            + " others are simulated but not analyzed, and the score counts the GPU-days of these (default: every chunk)")
    List<Integer> soakChunks;

    @Option(names = "--soak-keep-input", description = "keep each chunk's input (JSON lines) next to its output")
    boolean soakKeepInput;

    @Override
    public Integer call() throws Exception {
      Analyzer analyzer = analyzeCmd != null ? new CommandAnalyzer(analyzeCmd, 1800) : parent.inProcessAnalyzer;
      if (analyzer == null) {
        throw new IllegalArgumentException("no analytics in this JVM: run it as ./fleetscope bench detect,"
            + " or pass --analyze-cmd 'CMD {in} {out}'");
      }
      if (soak != null) {
        return soak(analyzer);
      }
      List<String> names = scenarios != null ? scenarios
          : ScenarioLoader.builtinNames().stream().filter(n -> !n.equals("demo") && !n.equals("chaos")).toList();
      if (interval.isZero() || interval.isNegative()) {
        throw new IllegalArgumentException("--interval must be positive");
      }
      var results = new DetectBench(new DetectBench.Options(names, nodes, seed, work, tolerance.toMillis(),
          interval.toMillis()), analyzer).run();
      String text = DetectBench.report(results);
      System.out.print(text);
      if (report != null) {
        Files.writeString(report, text);
      }
      return results.stream().anyMatch(r -> r.error() != null) ? 1 : 0;
    }

    private int soak(Analyzer analyzer) throws Exception {
      if (soak.isZero() || soak.isNegative() || soakChunk.isZero() || soakChunk.isNegative() || soakNodes < 1) {
        throw new IllegalArgumentException("--soak and --soak-chunk must be positive, --soak-nodes at least 1");
      }
      SoakBench.Options o = new SoakBench.Options(soak, soakInterval, soakNodes, seed, soakChunk,
          Duration.ofMinutes(10), work.resolve("soak"), soakChunks == null ? java.util.Set.of() : new java.util.HashSet<>(soakChunks),
          soakKeepInput);
      SoakBench.Result r = new SoakBench(o, analyzer).run();
      String text = r.score().report(r.startMs(), 500) + String.format(
          "(%d records at %s intervals, %d chunks, %.1f MB of chunk input, analyze %.0f s)%n", r.records(),
          soakInterval.toMillis() + "ms", r.chunks(), r.bytes() / 1e6, r.analyzeMs() / 1000.0);
      System.out.print(text);
      if (report != null) {
        Files.writeString(report, text);
      }
      return 0;
    }
  }

  /** {@code bench pipeline}. */
  @Command(name = "pipeline", sortOptions = false,
      description = "A paced (1x) simulated fleet into the running local stack: throughput, lag, latency, CPU and memory.")
  static final class Pipeline implements Callable<Integer> {
    @Mixin HelpOption help;

    @Option(names = "--gpus", paramLabel = "N", required = true, description = "simulated GPUs")
    int gpus;

    @Option(names = "--duration", paramLabel = "DURATION", description = "measured time after the warm-up (default: 5m)")
    Duration duration = Duration.ofMinutes(5);

    @Option(names = "--warmup", paramLabel = "DURATION", description = "time before measuring (default: 1m)")
    Duration warmup = Duration.ofMinutes(1);

    @Mixin KafkaOption kafka;
    @Mixin RegistryOption registry;

    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "the local stack's state directory, where the services' pid files are (default: ${DEFAULT-VALUE})")
    Path stateDir = Path.of(".fleetscope");

    @Option(names = "--pid", paramLabel = "NAME=PID", description = "also sample this process's CPU and memory")
    Map<String, Long> pids = new LinkedHashMap<>();

    @Option(names = "--out-dir", paramLabel = "DIR", description = "where the samples, plot and summary go (default: ${DEFAULT-VALUE})")
    Path outDir = Path.of(".fleetscope/bench");

    @Option(names = "--scenario", paramLabel = "NAME", description = "scenario of the fleet (default: ${DEFAULT-VALUE})")
    String scenario = "pipeline-probes";

    @Option(names = "--seed", paramLabel = "S", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--alertmanager", paramLabel = "URL", description = "Alertmanager whose API is polled for the "
        + "sample-to-Alertmanager latency; empty: none (default: ${DEFAULT-VALUE})")
    String alertmanager = LocalEndpoints.ALERTMANAGER;

    @Override
    public Integer call() throws Exception {
      PipelineBench.Options opts = new PipelineBench.Options(gpus, duration, warmup, kafka.bootstrap(), registry.url(),
          stateDir, pids, outDir, scenario, seed, alertmanager, kafka.client());
      new PipelineBench(opts).run();
      System.out.print(Files.readString(opts.outDir().resolve("pipeline-" + opts.gpus() + "-summary.md")));
      return 0;
    }
  }

  /** {@code bench generator}. */
  @Command(name = "generator", sortOptions = false,
      description = "How fast the simulator produces records, unpaced: records only, JSON lines, Avro.")
  static final class Generator implements Callable<Integer> {
    @Mixin HelpOption help;

    @Option(names = "--gpus", paramLabel = "N", description = "simulated GPUs (default: ${DEFAULT-VALUE})")
    int gpus = 20000;

    @Option(names = "--simulated", paramLabel = "DURATION", description = "simulated time per run (default: 30s)")
    Duration simulated = Duration.ofSeconds(30);

    @Option(names = "--runs", paramLabel = "N", description = "runs per mode (default: ${DEFAULT-VALUE})")
    int runs = 3;

    @Option(names = "--modes", paramLabel = "A,B", split = ",", description = "sim, json, avro (default: all three)")
    List<String> modes;

    @Option(names = "--report", paramLabel = "FILE", description = "also write the report here")
    Path report;

    @Override
    public Integer call() throws Exception {
      String md = GeneratorBench.markdown(GeneratorBench.run(gpus, simulated.toSeconds(), runs,
          modes != null ? modes : List.of("sim", "json", "avro")), runs);
      System.out.print(md);
      if (report != null) {
        Files.writeString(report, md);
      }
      return 0;
    }
  }
}
