package io.fleetscope.cli;

import io.fleetscope.loadgen.bench.LagProbe;
import io.fleetscope.loadgen.bench.chaos.FaultKind;
import io.fleetscope.loadgen.bench.chaos.FaultOutcome;
import io.fleetscope.schemas.Topics;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.LocalStack;
import io.fleetscope.stack.services.StackConfig;
import io.fleetscope.stack.services.flink.FlinkRest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Kills and restarts one part of the running local stack and pipeline at a time, the way a node
 * crash or an OOM kill does (SIGKILL; Alertmanager is stopped for a while instead), then measures
 * how long the part took to answer again and how long the pipeline took to catch up: the sink's and
 * the correlator's consumer lag back under {@link #CAUGHT_UP_LAG} records and the analytics job
 * running with all its tasks.
 */
final class FaultInjector implements AutoCloseable {
  /** Consumer lag, in records over all partitions, that counts as caught up (a few seconds of the fleet). */
  static final long CAUGHT_UP_LAG = 2000;
  /** How long a part may take to come back and the pipeline to catch up before the fault counts as not recovered. */
  static final Duration RECOVERY_LIMIT = Duration.ofMinutes(4);
  /** The consumer groups watched, and the topics each reads (its lag before it has committed anything). */
  private static final Map<String, List<String>> GROUPS = Map.of(
      "fleetscope-sink", List.of(Topics.GPU, Topics.GPU_XID, Topics.IB, Topics.PDU, Topics.COOLANT, Topics.CKPT),
      "fleetscope-correlator", List.of(Topics.ANOMALIES));

  private final LocalStack stack;
  private final StackConfig config;
  private final FlinkRest flink;
  private final String jobId;
  private final Map<String, Pipeline.Component> components;
  private final Map<String, Pipeline> running;
  private final PrintStream out;
  private final Admin admin;

  /**
   * {@code running}: the correlator and the sink, each in a {@link Pipeline} of its own, by name;
   * a restart replaces the entry.
   */
  FaultInjector(LocalStack stack, FlinkRest flink, String jobId, Map<String, Pipeline.Component> components,
      Map<String, Pipeline> running, PrintStream out) {
    this.stack = stack;
    this.config = stack.config();
    this.flink = flink;
    this.jobId = jobId;
    this.components = components;
    this.running = running;
    this.out = out;
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrap());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
    this.admin = Admin.create(p);
  }

  /** Injects {@code kind} ({@code atS}: seconds since the fleet started, for the report) and waits for recovery. */
  FaultOutcome inject(FaultKind kind, double atS, Duration alertmanagerDown) throws Exception {
    long t0 = System.nanoTime();
    String detail;
    switch (kind) {
      case BROKER -> detail = killService("kafka", "kafka");
      case TASKMANAGER -> detail = killTaskManager();
      case REGISTRY -> detail = killService("registry", "registry");
      case POSTGRES -> detail = killPostgres();
      case CORRELATOR, SINK -> detail = killComponent(kind.label());
      case ALERTMANAGER -> detail = stopAlertmanager(alertmanagerDown);
      default -> throw new IllegalArgumentException("no injection for " + kind);
    }
    double downS = secondsSince(t0);
    double recoverS = awaitCaughtUp(t0) ? secondsSince(t0) : -1;
    out.printf(Locale.ROOT, "chaos fault=%s at_s=%.1f down_s=%.1f recovered_s=%s detail=\"%s\"%n", kind.label(), atS, downS,
        recoverS < 0 ? "never" : String.format(Locale.ROOT, "%.1f", recoverS), detail);
    return new FaultOutcome(kind, atS, downS, recoverS, detail);
  }

  /** SIGKILL of the process in {@code run/<pidName>.pid}, then {@code up} until {@code service} is healthy. */
  private String killService(String pidName, String service) throws Exception {
    long pid = readPid(pidName);
    ProcessHandle h = ChildProcesses.alive(pid).orElseThrow(() -> new IllegalStateException(
        "chaos: " + pidName + " (pid " + pid + ") is not running before its fault"));
    kill(h);
    restart(service);
    return "SIGKILL pid " + pid + ", restarted";
  }

  /**
   * SIGKILL of the TaskManager; once the JobManager has noticed (the job no longer runs all its
   * tasks: heartbeat timeout), {@code up} starts a new TaskManager and the job restarts from its
   * last checkpoint.
   */
  private String killTaskManager() throws Exception {
    long pid = readPid("flink-taskmanager");
    ProcessHandle h = ChildProcesses.alive(pid).orElseThrow(() -> new IllegalStateException(
        "chaos: the TaskManager (pid " + pid + ") is not running before its fault"));
    kill(h);
    long t0 = System.nanoTime();
    long deadline = t0 + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline && allTasksRunning()) {
      Thread.sleep(500);
    }
    String noticed = String.format(Locale.ROOT, "job noticed after %.1f s", secondsSince(t0));
    restart("flink");
    return "SIGKILL pid " + pid + ", " + noticed + ", new TaskManager started";
  }

  private boolean allTasksRunning() {
    try {
      return flink.allTasksRunning(jobId);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * SIGKILL of the postmaster; its backends notice and exit (they would keep the shared memory and
   * refuse a new postmaster), then {@code up} starts it again with crash recovery.
   */
  private String killPostgres() throws Exception {
    LocalPostgres pg = LocalPostgres.attach(LocalPostgres.Config.durable(config.stateDir().resolve("postgres"),
        config.postgresPort()));
    long pid = pg.pid();
    ProcessHandle h = ChildProcesses.alive(pid).orElseThrow(() -> new IllegalStateException(
        "chaos: postgres (pid " + pid + ") is not running before its fault"));
    List<ProcessHandle> children = h.children().toList();
    kill(h);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    restart("postgres");
    return "SIGKILL postmaster pid " + pid + " (" + children.size() + " backends left to exit), restarted";
  }

  private String killComponent(String name) throws Exception {
    Pipeline p = running.get(name);
    ProcessHandle h = p.processes().get(0).toHandle();
    long pid = h.pid();
    kill(h);
    p.close(); // already dead: only removes its pid file
    Pipeline fresh = new Pipeline(config.stateDir(), List.of(components.get(name)));
    fresh.start(out, false);
    running.put(name, fresh);
    return "SIGKILL pid " + pid + ", restarted as pid " + fresh.processes().get(0).pid();
  }

  private String stopAlertmanager(Duration down) throws Exception {
    long pid = readPid("alertmanager");
    ProcessHandle h = ChildProcesses.alive(pid).orElseThrow(() -> new IllegalStateException(
        "chaos: alertmanager (pid " + pid + ") is not running before its fault"));
    h.destroy();
    h.onExit().get();
    Thread.sleep(down.toMillis());
    restart("alertmanager");
    return "SIGTERM pid " + pid + ", down " + down.toSeconds() + " s, restarted";
  }

  private static void kill(ProcessHandle h) throws Exception {
    h.destroyForcibly();
    h.onExit().get();
  }

  /** {@code up} (starts whatever is not healthy) until {@code service} answers. */
  private void restart(String service) throws Exception {
    long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        stack.up();
        if (healthy(service)) {
          return;
        }
      } catch (RuntimeException e) {
        last = e;
        out.printf("chaos restart service=%s status=retrying reason=\"%s\"%n", service,
            String.valueOf(e.getMessage()).lines().findFirst().orElse("").replace('"', '\''));
      }
      Thread.sleep(2000);
    }
    throw new IllegalStateException("chaos: " + service + " did not come back within " + RECOVERY_LIMIT.toSeconds() + " s", last);
  }

  private boolean healthy(String service) {
    return stack.status().stream().anyMatch(s -> s.service().equals(service) && s.healthy());
  }

  /** Whether the consumers caught up and the analytics run, within {@link #RECOVERY_LIMIT} of {@code t0}. */
  boolean awaitCaughtUp(long t0) throws InterruptedException {
    while (System.nanoTime() - t0 < RECOVERY_LIMIT.toNanos()) {
      if (caughtUp()) {
        return true;
      }
      Thread.sleep(1000);
    }
    return false;
  }

  private boolean caughtUp() {
    try {
      if (lag().values().stream().anyMatch(l -> l > CAUGHT_UP_LAG)) {
        return false;
      }
      return "RUNNING".equals(flink.jobState(jobId)) && flink.allTasksRunning(jobId);
    } catch (Exception e) {
      return false; // the broker or the JobManager is not answering yet
    }
  }

  /**
   * The consumer lag of the sink and the correlator, in records; a group that has committed nothing
   * yet has everything on its topics to read.
   */
  Map<String, Long> lag() throws Exception {
    LagProbe probe = new LagProbe(admin, null);
    Map<String, Long> byGroup = probe.lagByGroup();
    Map<String, Long> out = new java.util.TreeMap<>();
    for (Map.Entry<String, List<String>> g : GROUPS.entrySet()) {
      Long l = byGroup.get(g.getKey());
      if (l == null || l < 0) {
        l = 0L;
        for (String t : g.getValue()) {
          l += probe.endOffsetSum(t);
        }
      }
      out.put(g.getKey(), l);
    }
    return out;
  }

  private long readPid(String name) throws IOException {
    Path f = config.stateDir().resolve("run").resolve(name + ".pid");
    return Long.parseLong(Files.readString(f).trim());
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  @Override
  public void close() {
    admin.close();
  }
}
