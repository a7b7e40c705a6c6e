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
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.DISK_FULL;
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.DROPPED;
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.SENT;
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.SEQ_NEXT;
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.SPOOLED;
import static io.fleetscope.loadgen.bench.chaos.AgentMetrics.SPOOL_BYTES;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Kills and restarts one part of the running local stack and pipeline at a time, the way a node
 * crash or an OOM kill does (SIGKILL; Alertmanager is stopped for a while instead), then measures
 * how long the part took to answer again and how long the pipeline took to catch up: the sink and
 * the correlator have committed everything that was on their topics when the fault began and their
 * consumer groups are stable with members again, and the analytics job runs with all its tasks.
 */
final class FaultInjector implements AutoCloseable {
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
  private final List<String> unplannedExits = new java.util.ArrayList<>();
  /** The real node agent beside the simulated fleet, or null when none runs. */
  private ChaosAgent agent;
  /** Set by an agent fault whose check failed: the fault then counts as not recovered. */
  private boolean agentCheckFailed;

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

  /** The agent the {@code agent} and {@code spool-full} faults act on, supervised like the components. */
  FaultInjector withAgent(ChaosAgent agent) {
    this.agent = agent;
    return this;
  }

  /** Injects {@code kind} ({@code atS}: seconds since the fleet started, for the report) and waits for recovery. */
  FaultOutcome inject(FaultKind kind, double atS, Duration alertmanagerDown) throws Exception {
    Map<String, Long> before = endOffsets();
    String group = kind == FaultKind.SINK ? "fleetscope-sink" : kind == FaultKind.CORRELATOR ? "fleetscope-correlator" : null;
    Set<String> killedMembers = group == null ? Set.of() : members(group);
    long t0 = System.nanoTime();
    String detail;
    agentCheckFailed = false;
    switch (kind) {
      case BROKER -> detail = killService("kafka", "kafka");
      case TASKMANAGER -> detail = killTaskManager();
      case REGISTRY -> detail = killService("registry", "registry");
      case POSTGRES -> detail = killPostgres();
      case CORRELATOR, SINK -> detail = killComponent(kind.label());
      case ALERTMANAGER -> detail = stopAlertmanager(alertmanagerDown);
      case AGENT -> detail = killAgentWithSpool();
      case SPOOL_FULL -> detail = fillAgentSpool();
      default -> throw new IllegalArgumentException("no injection for " + kind);
    }
    double downS = secondsSince(t0);
    double recoverS = awaitCaughtUp(t0, before, killedMembers) && !agentCheckFailed ? secondsSince(t0) : -1;
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
        config.postgresPort(), config.secretsDir()));
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

  /**
   * SIGKILL of the broker; once the agent has records it could not send in its spool (its /metrics:
   * spooled, not sent), SIGKILL of the agent and a restart on the same spool; then the broker again,
   * and the agent must send again.
   */
  private String killAgentWithSpool() throws Exception {
    requireAgent();
    long kafkaPid = readPid("kafka");
    kill(ChildProcesses.alive(kafkaPid).orElseThrow(() -> new IllegalStateException(
        "chaos: kafka (pid " + kafkaPid + ") is not running before the agent fault")));
    long t0 = System.nanoTime();
    io.fleetscope.loadgen.bench.chaos.AgentMetrics m = agent.metrics();
    while ((m.unsent() < 32 || secondsSince(t0) < 10) && secondsSince(t0) < 60) {
      Thread.sleep(1000);
      m = agent.metrics();
    }
    long dirBytes = agent.spoolDirBytes();
    long agentPid = agentPid();
    m = agent.kill();
    out.printf(Locale.ROOT, "chaos agent step=killed pid=%d broker_down_s=%.1f spool_bytes=%d spool_dir_bytes=%d unsent=%d"
        + " spooled=%d sent=%d dropped=%d seq_next=%d%n", agentPid, secondsSince(t0), m.get(SPOOL_BYTES), dirBytes,
        m.unsent(), m.get(SPOOLED), m.get(SENT), m.get(DROPPED), m.get(SEQ_NEXT));
    if (m.unsent() == 0) {
      agentCheckFailed = true;
    }
    agent.start();
    long restartedPid = agentPid();
    restart("kafka");
    String sentAgain = awaitAgentSends(Duration.ofSeconds(90));
    return String.format(Locale.ROOT, "broker SIGKILLed; agent SIGKILL pid %d with %d unsent records in its spool"
        + " (spool_bytes %d, spool dir %d B, seq_next %d), restarted as pid %d on the same spool; broker restarted; %s",
        agentPid, m.unsent(), m.get(SPOOL_BYTES), dirBytes, m.get(SEQ_NEXT), restartedPid, sentAgain);
  }

  /**
   * The agent's spool filesystem (a small tmpfs) filled by another file to a few segments of free
   * space, then the broker SIGKILLed: the spool grows until the disk is full and the agent drops and
   * counts records. It must stay alive; then the broker comes back and the agent must send again
   * (with the disk still full); then the filler goes.
   */
  private String fillAgentSpool() throws Exception {
    requireAgent();
    if (!agent.spoolOnTmpfs()) {
      throw new IllegalStateException("chaos: spool-full needs the agent's spool on its tmpfs");
    }
    Path filler = agent.mount().resolve("filler");
    java.nio.file.FileStore fs = Files.getFileStore(agent.mount());
    long keepFree = 48 * 1024;
    long fill = Math.max(0, fs.getUsableSpace() - agent.spoolDirBytes() - keepFree);
    try (var ch = java.nio.channels.FileChannel.open(filler, java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.WRITE)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 * 1024);
      long written = 0;
      while (written < fill) {
        buf.clear().limit((int) Math.min(buf.capacity(), fill - written));
        written += ch.write(buf);
      }
    } catch (IOException e) {
      // the disk filled up before the filler was whole: full is what this fault wants
    }
    long freeAfterFill = fs.getUsableSpace();
    io.fleetscope.loadgen.bench.chaos.AgentMetrics before = agent.metrics();
    long kafkaPid = readPid("kafka");
    kill(ChildProcesses.alive(kafkaPid).orElseThrow(() -> new IllegalStateException(
        "chaos: kafka (pid " + kafkaPid + ") is not running before the spool-full fault")));
    long t0 = System.nanoTime();
    io.fleetscope.loadgen.bench.chaos.AgentMetrics m = before;
    while ((m.get(DISK_FULL) <= before.get(DISK_FULL) || m.get(DROPPED) <= before.get(DROPPED) || secondsSince(t0) < 15)
        && secondsSince(t0) < 150 && agent.alive()) {
      Thread.sleep(1000);
      m = agent.metrics();
    }
    // a few more rounds against the full disk
    for (int i = 0; i < 5 && agent.alive(); i++) {
      Thread.sleep(1000);
      m = agent.metrics();
    }
    boolean alive = agent.alive();
    long diskFull = m.get(DISK_FULL) - before.get(DISK_FULL);
    long dropped = m.get(DROPPED) - before.get(DROPPED);
    out.printf(Locale.ROOT, "chaos agent step=disk-full alive=%s broker_down_s=%.1f free_bytes_after_fill=%d"
        + " disk_full_writes=+%d dropped=+%d spool_bytes=%d unsent=%d%n", alive, secondsSince(t0), freeAfterFill, diskFull,
        dropped, m.get(SPOOL_BYTES), m.unsent());
    if (!alive || diskFull == 0 || dropped == 0) {
      agentCheckFailed = true;
    }
    restart("kafka");
    String sentAgain = alive ? awaitAgentSends(Duration.ofSeconds(90)) : "agent dead, sent nothing";
    Files.deleteIfExists(filler);
    return String.format(Locale.ROOT, "tmpfs %s of %s filled to %d KiB free, broker SIGKILLed for %.0f s; agent %s,"
        + " disk-full writes +%d, records dropped and counted +%d; broker restarted; %s; filler removed",
        agent.mount().getFileName(), ChaosAgent.SPOOL_FS_SIZE, freeAfterFill / 1024, secondsSince(t0),
        alive ? "alive" : "DEAD", diskFull, dropped, sentAgain);
  }

  private void requireAgent() {
    if (agent == null) {
      throw new IllegalStateException("chaos: no agent runs, so there is no agent fault to inject");
    }
  }

  private long agentPid() {
    return agent.pid();
  }

  /** Waits until the agent has sent records again and nothing is left unsent; says how long it took. */
  private String awaitAgentSends(Duration limit) throws Exception {
    long t0 = System.nanoTime();
    long sent0 = agent.metrics().get(SENT);
    io.fleetscope.loadgen.bench.chaos.AgentMetrics m = agent.metrics();
    while (secondsSince(t0) < limit.toSeconds()) {
      m = agent.metrics();
      if (m.get(SENT) > sent0 && m.unsent() < 64) {
        return String.format(Locale.ROOT, "agent sending again after %.1f s (sent %d, unsent %d)", secondsSince(t0),
            m.get(SENT), m.unsent());
      }
      Thread.sleep(1000);
    }
    agentCheckFailed = true;
    return String.format(Locale.ROOT, "agent NOT sending again within %d s (sent %d, unsent %d)", limit.toSeconds(),
        m.get(SENT), m.unsent());
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

  /**
   * Whether, within {@link #RECOVERY_LIMIT} of {@code t0}, the analytics run all their tasks and each
   * watched group has committed at least the end offsets {@code before} of its topics, is stable and
   * has none of {@code killedMembers} left (a SIGKILLed member keeps its partitions until its session
   * times out).
   */
  boolean awaitCaughtUp(long t0, Map<String, Long> before, Set<String> killedMembers)
      throws IOException, InterruptedException {
    while (System.nanoTime() - t0 < RECOVERY_LIMIT.toNanos()) {
      supervise();
      if (caughtUp(before, killedMembers)) {
        return true;
      }
      Thread.sleep(1000);
    }
    return false;
  }

  private boolean caughtUp(Map<String, Long> before, Set<String> killedMembers) {
    try {
      Map<String, Long> committed = committed();
      for (Map.Entry<String, Long> e : before.entrySet()) {
        if (committed.get(e.getKey()) < e.getValue()) {
          return false;
        }
      }
      for (ConsumerGroupDescription g : admin.describeConsumerGroups(GROUPS.keySet()).all().get(10, TimeUnit.SECONDS)
          .values()) {
        if (g.groupState() != GroupState.STABLE || g.members().isEmpty()
            || g.members().stream().anyMatch(m -> killedMembers.contains(m.consumerId()))) {
          return false;
        }
      }
      return "RUNNING".equals(flink.jobState(jobId)) && flink.allTasksRunning(jobId);
    } catch (Exception e) {
      return false; // the broker or the JobManager is not answering yet
    }
  }

  /**
   * Restarts a pipeline component that exited on its own, as a supervisor (Kubernetes, systemd)
   * would, and keeps the exit as a finding: nothing injected it.
   */
  void supervise() throws IOException {
    if (agent != null) {
      try {
        agent.supervise();
      } catch (IOException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("chaos: the agent could not be restarted: " + e.getMessage(), e);
      }
    }
    for (Map.Entry<String, Pipeline> e : running.entrySet()) {
      String dead = e.getValue().firstDead();
      if (dead == null) {
        continue;
      }
      Path log = e.getValue().logOf(e.getKey());
      String last = ChildProcesses.tail(log, 3).lines().filter(l -> l.contains("error") || l.contains("Exception"))
          .reduce((a, b) -> b).orElse(ChildProcesses.tail(log, 1)).trim();
      String finding = e.getKey() + " exited on its own (" + dead + "), last words: " + last;
      unplannedExits.add(finding);
      out.printf("chaos unplanned-exit service=%s status=\"%s\" log=%s action=restart%n", e.getKey(), dead, log);
      e.getValue().close();
      Pipeline fresh = new Pipeline(config.stateDir(), List.of(components.get(e.getKey())));
      fresh.start(out, false);
      e.setValue(fresh);
    }
  }

  /** The exits {@link #supervise()} found, one line each. */
  List<String> unplannedExits() {
    List<String> all = new java.util.ArrayList<>(unplannedExits);
    if (agent != null) {
      all.addAll(agent.unplannedExits());
    }
    return List.copyOf(all);
  }

  /** The member ids of {@code group} now. */
  private Set<String> members(String group) throws Exception {
    return admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group).members().stream()
        .map(m -> m.consumerId()).collect(java.util.stream.Collectors.toSet());
  }

  /** Per watched group: the sum of the end offsets of the topics it reads. */
  Map<String, Long> endOffsets() throws Exception {
    LagProbe probe = new LagProbe(admin, null);
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, List<String>> g : GROUPS.entrySet()) {
      long sum = 0;
      for (String t : g.getValue()) {
        sum += probe.endOffsetSum(t);
      }
      out.put(g.getKey(), sum);
    }
    return out;
  }

  /** Per watched group: the sum of its committed offsets on the topics it reads (0 before its first commit). */
  Map<String, Long> committed() throws Exception {
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, List<String>> g : GROUPS.entrySet()) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(g.getKey())
          .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
      out.put(g.getKey(), offsets.entrySet().stream()
          .filter(e -> e.getValue() != null && g.getValue().contains(e.getKey().topic()))
          .mapToLong(e -> e.getValue().offset()).sum());
    }
    return out;
  }

  /** Per watched group: records on its topics not yet committed. */
  Map<String, Long> lag() throws Exception {
    Map<String, Long> end = endOffsets();
    Map<String, Long> committed = committed();
    Map<String, Long> out = new TreeMap<>();
    end.forEach((g, n) -> out.put(g, Math.max(0, n - committed.get(g))));
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
