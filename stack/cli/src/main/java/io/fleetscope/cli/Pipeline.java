package io.fleetscope.cli;

import io.fleetscope.console.ConsoleServer;
import io.fleetscope.flink.RunMain;
import io.fleetscope.schemas.cli.DbPassword;
import io.fleetscope.schemas.cli.LocalEndpoints;
import io.fleetscope.sink.SinkMain;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.JavaClasspath;
import io.fleetscope.streams.CorrelatorApp;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The pipeline services, each in its own JVM so that its CPU and memory can be told apart: the alert
 * correlator (Kafka Streams), the TimescaleDB sink, the console, and, only with the minicluster
 * engine, the analytics on a Flink MiniCluster (with the default engine they run as a job on the
 * Flink session cluster instead, {@link ClusterAnalytics}). Logs go to {@code <state>/logs/<name>.log},
 * pids to {@code <state>/run/<name>.pid}.
 */
final class Pipeline implements AutoCloseable {
  /** One service: its name, main class, JVM heap, garbage collector flag and arguments. */
  record Component(String name, String mainClass, String heap, String gc, List<String> args) {}

  /**
   * The analytics run the parallel collector: it has no concurrent refinement threads or write
   * barriers of G1's, and in ThroughputBenchmark the analytics processed 1.28x the records per
   * CPU-second with it (BENCHMARKS.md); their pauses (tens of ms) are far below the 10 s ticks.
   */
  static final String ANALYTICS_GC = "-XX:+UseParallelGC";

  /** The correlator's incidents API port on 127.0.0.1. */
  static final int CORRELATOR_HTTP_PORT = 18083;

  private final Path stateDir;
  private final List<Component> components;
  private final List<Process> processes = new ArrayList<>();

  Pipeline(Path stateDir, List<Component> components) {
    this.stateDir = stateDir;
    this.components = components;
  }

  /** The analytics job's arguments ({@link io.fleetscope.flink.RunMain}) against {@code e}. */
  static List<String> analyticsArgs(Endpoints e, Path analyticsConfig) {
    List<String> analytics = new ArrayList<>(e.kafkaArgs());
    analytics.addAll(List.of("--registry", e.registry()));
    if (analyticsConfig != null) {
      analytics.addAll(List.of("--config", analyticsConfig.toString()));
    }
    return analytics;
  }

  /**
   * The services against {@code e}: correlator, sink and console, and first the analytics on a
   * MiniCluster in a JVM of their own when {@code miniClusterAnalytics}.
   */
  static List<Component> services(Endpoints e, Path stateDir, Path analyticsConfig, boolean miniClusterAnalytics) {
    List<Component> out = new ArrayList<>();
    if (miniClusterAnalytics) {
      List<String> analytics = new ArrayList<>(analyticsArgs(e, analyticsConfig));
      analytics.addAll(List.of("--minicluster", "--checkpoint-dir", stateDir.resolve("flink-checkpoints").toString()));
      out.add(new Component("analytics", RunMain.class.getName(), "3g", ANALYTICS_GC, analytics));
    }
    out.addAll(services(e, stateDir));
    return out;
  }

  private static List<Component> services(Endpoints e, Path stateDir) {
    String incidents = "http://127.0.0.1:" + CORRELATOR_HTTP_PORT + "/api/v1/incidents";
    return List.of(correlator(e, stateDir, CORRELATOR_HTTP_PORT), sink(e, stateDir),
        new Component("console", ConsoleServer.class.getName(), "128m", "-XX:+UseG1GC", concat(List.of(
            "--http-port", Integer.toString(e.consolePort()), "--jdbc", e.jdbc(), "--incidents-url", incidents),
            credential("--jdbc-user", "--jdbc-password-file", LocalEndpoints.JDBC_READER_USER, stateDir))));
  }

  /**
   * A database user and, where the local stack generated one, the file of its password: the
   * password itself never goes on a command line.
   */
  static List<String> credential(String userFlag, String fileFlag, String user, Path stateDir) {
    Path file = DbPassword.secretsFile(stateDir, user).toAbsolutePath();
    return Files.isRegularFile(file) ? List.of(userFlag, user, fileFlag, file.toString()) : List.of(userFlag, user);
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> p : parts) {
      out.addAll(p);
    }
    return out;
  }

  /** The alert correlator against {@code e}, its incidents API on {@code httpPort}. */
  static Component correlator(Endpoints e, Path stateDir, int httpPort) {
    return new Component("correlator", CorrelatorApp.class.getName(), "384m", "-XX:+UseG1GC", concat(e.kafkaArgs(), List.of(
        "--registry", e.registry(), "--alertmanager", e.alertmanager(),
        "--http-port", Integer.toString(httpPort), "--state-dir", stateDir.resolve("streams").toString())));
  }

  /**
   * The analytics (on a MiniCluster in a JVM of their own) and the correlator over the topic set
   * {@code P<topic>} that {@code replay --prefix P} writes: consumer group {@code P}fleetscope-analytics,
   * application id {@code P}fleetscope-correlator, checkpoints and Kafka Streams state under
   * {@code stateDir} (the prefixed run's own, as its logs and pid files are), so they run beside the
   * stack's own services without sharing offsets, state or topics. No sink and no console: the stack's database holds the stack's records only. The
   * correlator serves its incidents on {@code httpPort} (0: a free port, -1: none) and delivers to
   * {@code e}'s Alertmanager.
   */
  static List<Component> prefixed(Endpoints e, Path stateDir, Path analyticsConfig, String prefix, int httpPort) {
    if (prefix == null || !prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("a topic prefix may hold letters, digits, '.', '_' and '-' only; got '" + prefix + "'");
    }
    List<String> analytics = new ArrayList<>(analyticsArgs(e, analyticsConfig));
    analytics.addAll(List.of("--minicluster", "--checkpoint-dir", stateDir.resolve("flink-checkpoints").toString(),
        "--topic-prefix", prefix, "--group-id", prefix + RunMain.JOB_NAME));
    Component c = correlator(e, stateDir, httpPort);
    List<String> correlatorArgs = new ArrayList<>(c.args());
    correlatorArgs.addAll(List.of("--topic-prefix", prefix));
    return List.of(new Component("analytics", RunMain.class.getName(), "3g", ANALYTICS_GC, analytics),
        new Component(c.name(), c.mainClass(), c.heap(), c.gc(), correlatorArgs));
  }

  /** The TimescaleDB sink against {@code e}, with the local stack's password files under {@code stateDir}. */
  static Component sink(Endpoints e, Path stateDir) {
    return new Component("sink", SinkMain.class.getName(), "512m", "-XX:+UseG1GC", concat(e.kafkaArgs(), List.of(
        "--registry", e.registry(), "--jdbc", e.jdbc()),
        credential("--jdbc-user", "--jdbc-password-file", LocalEndpoints.JDBC_WRITER_USER, stateDir),
        credential("--jdbc-owner", "--jdbc-owner-password-file", LocalEndpoints.JDBC_USER, stateDir)));
  }

  /** Starts every component; they die with this JVM unless {@code detached}. */
  void start(PrintStream out, boolean detached) throws IOException {
    Path logs = Files.createDirectories(stateDir.resolve("logs"));
    Path run = Files.createDirectories(stateDir.resolve("run"));
    for (Component c : components) {
      List<String> cmd = new ArrayList<>(List.of(JavaClasspath.javaExecutable(), "-Xmx" + c.heap(), c.gc(),
          "-Dorg.slf4j.simpleLogger.showDateTime=true",
          "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSX",
          "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=warn",
          "-Dorg.slf4j.simpleLogger.log.org.apache.flink=warn",
          // Flink warns about every long operator name and duplicate metric name at start: not events
          "-Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.metrics=error",
          "-Dorg.slf4j.simpleLogger.log.org.apache.flink.metrics=error",
          // one line per completed checkpoint (size, duration): what bench pipeline reports
          "-Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.checkpoint.CheckpointCoordinator=info",
          "-cp", JavaClasspath.current(), c.mainClass()));
      cmd.addAll(c.args());
      Path log = logs.resolve(c.name() + ".log");
      Process p = ChildProcesses.start(cmd, stateDir, log, detached, java.util.Map.of());
      processes.add(p);
      Files.writeString(run.resolve(c.name() + ".pid"), Long.toString(p.pid()));
      out.printf("pipeline service=%s pid=%d log=%s%n", c.name(), p.pid(), log);
    }
  }

  /** The first component that has exited, or null while all run. */
  String firstDead() {
    for (int i = 0; i < processes.size(); i++) {
      if (!processes.get(i).isAlive()) {
        return components.get(i).name() + " (exit " + processes.get(i).exitValue() + ")";
      }
    }
    return null;
  }

  List<Process> processes() {
    return processes;
  }

  Path logOf(String name) {
    return stateDir.resolve("logs").resolve(name + ".log");
  }

  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      ChildProcesses.stop(processes.get(i).toHandle(), Duration.ofSeconds(15));
      try {
        Files.deleteIfExists(stateDir.resolve("run").resolve(components.get(i).name() + ".pid"));
      } catch (IOException ignored) {
        // a stale pid file is harmless: the next start overwrites it
      }
    }
    processes.clear();
  }
}
