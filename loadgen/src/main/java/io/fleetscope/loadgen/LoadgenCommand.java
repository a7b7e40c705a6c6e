package io.fleetscope.loadgen;

import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code loadgen} command line: its options, their defaults and how they combine into
 * {@link LoadgenOptions}; running it runs {@link LoadgenMain#run(LoadgenOptions)}.
 */
@Command(name = "loadgen", sortOptions = false,
    description = {"Simulates a fleet and writes its records to Kafka (the default: the local stack's broker,"
        + " paced to the wall clock) or to a JSON-lines file with --out (as fast as it can).",
        "Durations are written 500ms, 5s, 10m, 1h or 1m30s."})
public final class LoadgenCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--nodes", paramLabel = "N", description = "simulated GPU nodes (required)")
  Integer nodes;

  @Option(names = "--gpus-per-node", paramLabel = "N", description = "GPUs per node (default: ${DEFAULT-VALUE})")
  int gpusPerNode = 8;

  @Option(names = "--interval", paramLabel = "DURATION", description = "sample interval (default: 1s)")
  Duration interval = Duration.ofSeconds(1);

  @Option(names = "--scenario", paramLabel = "NAME|FILE.yaml",
      description = "built-in scenario name or scenario file (default: ${DEFAULT-VALUE}; --list-scenarios lists them)")
  String scenario = "healthy";

  @Option(names = "--duration", paramLabel = "DURATION", description = "simulated time (default: the scenario's)")
  Duration duration;

  @Option(names = "--seed", paramLabel = "S", description = "random seed; a run is a pure function of its options and seed"
      + " (default: ${DEFAULT-VALUE})")
  long seed = 1;

  @Option(names = "--start", paramLabel = "TIME|now",
      description = "first sample time, ISO-8601 (default: 2026-01-01T00:00:00Z with --out, now with Kafka)")
  String start;

  @Option(names = "--cluster", paramLabel = "NAME", description = "cluster name in every record (default: ${DEFAULT-VALUE})")
  String cluster = "sim";

  @Option(names = "--rate", paramLabel = "max|1x", description = "max: as fast as possible; 1x: paced to the wall clock"
      + " (default: max with --out, 1x with Kafka)")
  String rate;

  @Option(names = "--no-disorder", description = "send every record in order (by default a few are held back, as in a real fleet)")
  boolean noDisorder;

  @Mixin KafkaOption kafka;
  @Mixin RegistryOption registry;

  @Option(names = "--out", paramLabel = "FILE.jsonl", description = "write JSON lines to this file instead of Kafka")
  Path out;

  @Option(names = "--labels", paramLabel = "FILE.jsonl", description = "also write the ground-truth labels of the faults here")
  Path labels;

  @Option(names = "--list-scenarios", description = "list the built-in scenarios and exit")
  boolean listScenarios;

  @Override
  public Integer call() {
    return LoadgenMain.run(options(System.getenv(), Instant.now()));
  }

  /** The validated options; IllegalArgumentException names the mistake. */
  LoadgenOptions options(Map<String, String> env, Instant now) {
    if (listScenarios) {
      return new LoadgenOptions(0, gpusPerNode, interval, scenario, duration, seed, Instant.EPOCH, cluster, false,
          !noDisorder, null, registry.url(env), null, null, true);
    }
    if (nodes == null) {
      throw new IllegalArgumentException("--nodes N is required");
    }
    positive("--nodes", nodes);
    positive("--gpus-per-node", gpusPerNode);
    if (interval.toMillis() < 1) {
      throw new IllegalArgumentException("--interval must be at least 1ms");
    }
    if (out != null && (kafka.given().isPresent() || kafka.givenConfigFile().isPresent())) {
      throw new IllegalArgumentException("give --kafka (and --kafka-config) or --out, not both");
    }
    String broker = out == null ? kafka.bootstrap(env) : null;
    boolean paced;
    if (rate == null) {
      paced = out == null;
    } else if (rate.equals("1x")) {
      paced = true;
    } else if (rate.equals("max")) {
      paced = false;
    } else {
      throw new IllegalArgumentException("--rate must be max or 1x, got " + rate);
    }
    long step = interval.toMillis();
    Instant alignedNow = Instant.ofEpochMilli(now.toEpochMilli() / step * step);
    Instant st;
    if (start == null) {
      st = out == null ? alignedNow : SimConfig.DEFAULT_START;
    } else if (start.equals("now")) {
      st = alignedNow;
    } else {
      try {
        st = Instant.parse(start);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("--start must be an ISO-8601 instant (2026-01-01T00:00:00Z) or now");
      }
    }
    return new LoadgenOptions(nodes, gpusPerNode, interval, scenario, duration, seed, st, cluster, paced, !noDisorder,
        broker, registry.url(env), out, labels, false, out == null ? kafka.client(env) : KafkaClientConfig.none());
  }

  /** Parses {@code args} into options; a mistake throws IllegalArgumentException. */
  static LoadgenOptions parse(String[] args, Map<String, String> env, Instant now) {
    LoadgenCommand c = new LoadgenCommand();
    try {
      CommandLines.create(c).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return c.options(env, now);
  }

  private static void positive(String flag, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(flag + " must be a positive integer, got " + n);
    }
  }
}
