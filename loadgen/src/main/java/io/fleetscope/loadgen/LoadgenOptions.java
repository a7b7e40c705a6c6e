package io.fleetscope.loadgen;

import io.fleetscope.loadgen.scenario.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options of {@code loadgen}, parsed and validated in one place.
 *
 * <pre>
 * loadgen --nodes N [--gpus-per-node 8] [--interval 1s] [--scenario NAME|FILE.yaml] [--duration D]
 *         [--seed S] [--start TIME|now] [--cluster NAME] [--rate max|1x] [--no-disorder]
 *         (--kafka HOST:PORT [--registry URL] | --out FILE.jsonl) [--labels FILE.jsonl]
 * loadgen --list-scenarios
 * </pre>
 * Defaults: gpus-per-node 8, interval 1s, scenario healthy, duration = the scenario's, seed 1,
 * start 2026-01-01T00:00:00Z for --out and now for --kafka, rate max for --out and 1x for --kafka,
 * registry http://127.0.0.1:18081.
 */
public record LoadgenOptions(int nodes, int gpusPerNode, Duration interval, String scenario, Duration duration,
    long seed, Instant start, String cluster, boolean paced, boolean disorder, String kafka, String registry, Path out,
    Path labels, boolean listScenarios) {

  public static final String DEFAULT_REGISTRY = "http://127.0.0.1:18081";

  public static LoadgenOptions parse(String[] args) {
    Integer nodes = null;
    int gpus = 8;
    Duration interval = Duration.ofSeconds(1);
    String scenario = "healthy";
    Duration duration = null;
    long seed = 1;
    String start = null;
    String cluster = "sim";
    String rate = null;
    boolean disorder = true;
    String kafka = null;
    String registry = DEFAULT_REGISTRY;
    Path out = null;
    Path labels = null;
    boolean list = false;
    List<String> a = new ArrayList<>(List.of(args));
    for (int i = 0; i < a.size(); i++) {
      String k = a.get(i);
      switch (k) {
        case "--list-scenarios" -> list = true;
        case "--no-disorder" -> disorder = false;
        default -> {
          if (!k.startsWith("--")) {
            throw new IllegalArgumentException("unexpected argument '" + k + "'");
          }
          if (i + 1 >= a.size()) {
            throw new IllegalArgumentException(k + " needs a value");
          }
          String v = a.get(++i);
          switch (k) {
            case "--nodes" -> nodes = posInt(k, v);
            case "--gpus-per-node" -> gpus = posInt(k, v);
            case "--interval" -> interval = Durations.parse(v);
            case "--scenario" -> scenario = v;
            case "--duration" -> duration = Durations.parse(v);
            case "--seed" -> seed = Long.parseLong(v);
            case "--start" -> start = v;
            case "--cluster" -> cluster = v;
            case "--rate" -> rate = v;
            case "--kafka" -> kafka = v;
            case "--registry" -> registry = v;
            case "--out" -> out = Path.of(v);
            case "--labels" -> labels = Path.of(v);
            default -> throw new IllegalArgumentException("unknown option " + k);
          }
        }
      }
    }
    if (list) {
      return new LoadgenOptions(0, gpus, interval, scenario, duration, seed, Instant.EPOCH, cluster, false, disorder,
          null, registry, null, null, true);
    }
    if (nodes == null) {
      throw new IllegalArgumentException("--nodes N is required");
    }
    if ((kafka == null) == (out == null)) {
      throw new IllegalArgumentException("give exactly one of --kafka HOST:PORT or --out FILE.jsonl");
    }
    boolean paced;
    if (rate == null) {
      paced = kafka != null;
    } else if (rate.equals("1x")) {
      paced = true;
    } else if (rate.equals("max")) {
      paced = false;
    } else {
      throw new IllegalArgumentException("--rate must be max or 1x, got " + rate);
    }
    Instant st;
    if (start == null) {
      st = kafka != null ? Instant.ofEpochMilli(System.currentTimeMillis() / interval.toMillis() * interval.toMillis())
          : io.fleetscope.loadgen.sim.SimConfig.DEFAULT_START;
    } else if (start.equals("now")) {
      st = Instant.ofEpochMilli(System.currentTimeMillis() / interval.toMillis() * interval.toMillis());
    } else {
      try {
        st = Instant.parse(start);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("--start must be an ISO-8601 instant (2026-01-01T00:00:00Z) or now");
      }
    }
    return new LoadgenOptions(nodes, gpus, interval, scenario, duration, seed, st, cluster, paced, disorder, kafka,
        registry, out, labels, false);
  }

  private static int posInt(String k, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + " must be a positive integer, got '" + v + "'");
    }
  }
}
