package io.fleetscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.AnalyticCatalog;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.CollectionSource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.loadgen.bench.chaos.AgentVerdict;
import io.fleetscope.loadgen.bench.chaos.AnomalyDiff;
import io.fleetscope.loadgen.bench.chaos.ChaosFleet;
import io.fleetscope.loadgen.bench.chaos.ChaosReport;
import io.fleetscope.loadgen.bench.chaos.ChaosRunner;
import io.fleetscope.loadgen.bench.chaos.ChaosSchedule;
import io.fleetscope.loadgen.bench.chaos.FaultKind;
import io.fleetscope.loadgen.bench.chaos.FaultOutcome;
import io.fleetscope.loadgen.bench.chaos.PageLedger;
import io.fleetscope.loadgen.bench.chaos.RawVerdict;
import io.fleetscope.loadgen.bench.chaos.RecordId;
import io.fleetscope.loadgen.bench.chaos.RecordTally;
import io.fleetscope.loadgen.bench.chaos.TopicTally;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.stack.services.LocalStack;
import io.fleetscope.stack.services.StackConfig;
import io.fleetscope.stack.services.flink.FlinkRest;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.fleetscope.schemas.cli.DbPassword;
import io.fleetscope.schemas.cli.LocalEndpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;

/**
 * {@code bench chaos}: the local stack (Kafka, registry, PostgreSQL+TimescaleDB, Alertmanager, the
 * Flink session cluster) started fresh in a state directory of its own, the analytics job, the
 * correlator and the sink, a paced simulated fleet with scripted incidents ({@code chaos} scenario),
 * and one fault after another ({@link FaultInjector}). Then it counts: every raw record the broker
 * acknowledged against TimescaleDB and the raw topics, by (topic, node, agent_seq); the live
 * anomalies against a bounded analyze of the same records; the notifications per incident at the
 * webhook receiver. It stops everything it started.
 */
final class ChaosBench implements ChaosRunner {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The scenario the fleet runs. */
  static final String SCENARIO = "chaos";
  /** Time before the first fault: the job, the correlator and the sink consuming. */
  static final Duration WARMUP = Duration.ofSeconds(45);
  /** After the fleet's last record: how long the pipeline may take to drain. */
  static final Duration DRAIN_LIMIT = Duration.ofMinutes(3);
  /** Time after draining for Alertmanager's last notifications (its group_interval, twice). */
  static final Duration NOTIFY_SETTLE = Duration.ofSeconds(25);
  /**
   * How long the verdict waits for a resolution Alertmanager has but has not notified yet (its
   * group_wait and group_interval, twice, and some): see {@link PageLedger#settledVerdict}.
   */
  static final Duration RESOLUTION_IN_FLIGHT = Duration.ofSeconds(30);
  /**
   * Anomalies are compared up to this long before the fleet's last record: after it the live job's
   * watermark stops short where bounded analyze evaluates everything.
   */
  static final Duration COMPARE_MARGIN = Duration.ofSeconds(90);
  /**
   * The analytics settings of the run, for the job and for analyze alike: a partition counts as idle
   * after 60 s without records, so a broker restart or a CPU-starved source (two cores) does not let
   * the watermark pass records that are merely delayed.
   */
  static final String ANALYTICS_SETTINGS = "pipeline:\n  checkpoint_interval_ms: 10000\n  idleness_ms: 60000\n"
      + "  event_idleness_ms: 60000\n";
  /** Raw table and the column naming the record's source, per raw topic. */
  static final Map<String, String[]> RAW_TABLES = Map.of(
      Topics.GPU, new String[] {"gpu", "node"},
      Topics.GPU_XID, new String[] {"gpu_xid", "node"},
      Topics.IB, new String[] {"ib", "node"},
      Topics.PDU, new String[] {"pdu", "device"},
      Topics.COOLANT, new String[] {"coolant", "device"},
      Topics.CKPT, new String[] {"ckpt", "node"});
  /** The faults that need the real node agent, and what each covers of the issue's schedule. */
  static final Map<FaultKind, String> AGENT_FAULTS = Map.of(
      FaultKind.AGENT, "agent SIGKILL with a non-empty spool",
      FaultKind.SPOOL_FULL, "agent spool disk full");

  private final StackConfig stackConfig;
  private final Path jobJar;
  private final int correlatorPort;
  private final int receiverPort;
  private final PrintStream out;
  private Path agentJar;
  private Path agentExamples;
  private final java.util.concurrent.atomic.AtomicReference<ChaosAgent> agentRef =
      new java.util.concurrent.atomic.AtomicReference<>();

  /**
   * {@code stackConfig}: ports and a state directory of the chaos run's own, wiped at start;
   * {@code jobJar}: the analytics job jar.
   */
  ChaosBench(StackConfig stackConfig, Path jobJar, int correlatorPort, int receiverPort, PrintStream out) {
    this.stackConfig = stackConfig;
    this.jobJar = jobJar;
    this.correlatorPort = correlatorPort;
    this.receiverPort = receiverPort;
    this.out = out;
  }

  /**
   * Runs the real node agent ({@code jar}, the shaded agent jar; {@code examples}: agents/examples,
   * for its captured nvidia-smi row) beside the simulated fleet when a fault needs it.
   */
  ChaosBench withAgent(Path jar, Path examples) {
    this.agentJar = jar;
    this.agentExamples = examples;
    return this;
  }

  @Override
  public ChaosReport run(Options o) throws Exception {
    Path state = stackConfig.stateDir().toAbsolutePath();
    StackConfig cfg = stackConfig.withAlertmanagerConfig(state.resolve("chaos-alertmanager.yml"));
    LocalStack stack = new LocalStack(cfg);
    List<String> running = stack.status().stream().filter(LocalStack.ServiceStatus::healthy)
        .map(LocalStack.ServiceStatus::service).toList();
    if (!running.isEmpty()) {
      throw new IllegalStateException("chaos: " + running + " already answer on the chaos run's ports; stop them first"
          + " (./fleetscope down): the run kills and restarts these services and needs its own");
    }
    ChaosAgent.unmountStale(state.resolve("agent/spool-fs")); // left by a run that was killed
    deleteTree(state);
    Files.createDirectories(state);
    writeAlertmanagerConfig(cfg.alertmanagerConfig(), receiverPort);
    Path analyticsConfig = state.resolve("chaos-analytics.yaml");
    Files.writeString(analyticsConfig, ANALYTICS_SETTINGS);
    Endpoints e = new Endpoints(cfg.kafkaBootstrap(), cfg.registryUrl(),
        "jdbc:postgresql://127.0.0.1:" + cfg.postgresPort() + "/fleetscope", cfg.alertmanagerUrl(), 0, cfg.flinkRestUrl());
    out.printf("chaos step=up state=%s%n", state);
    java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable down = () -> {
      if (stopped.compareAndSet(false, true)) {
        ChaosAgent a = agentRef.getAndSet(null);
        if (a != null) {
          a.close(); // the agent stops, its spool's tmpfs is unmounted
        }
        out.println("chaos step=down");
        stack.down().forEach(s -> out.println("chaos " + s.line()));
      }
    };
    Thread hook = new Thread(down, "chaos-down"); // Ctrl-C or a kill: the services it started go too
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      stack.up().forEach(s -> out.println("chaos " + s.line()));
      return runOnStack(o, stack, e, analyticsConfig);
    } finally {
      down.run();
      Runtime.getRuntime().removeShutdownHook(hook);
    }
  }

  private ChaosReport runOnStack(Options o, LocalStack stack, Endpoints e, Path analyticsConfig) throws Exception {
    Path state = stack.config().stateDir().toAbsolutePath();
    io.fleetscope.schemas.TopicBootstrap.ensureAll(e.kafka());
    FlinkRest rest = new FlinkRest(e.flink());
    ClusterAnalytics analytics = new ClusterAnalytics(rest, new ClusterAnalytics.Options(
        jobJar, Pipeline.analyticsArgs(e, analyticsConfig),
        AnalyticsConfig.load(analyticsConfig).pipeline().parallelism(), stack.config().flinkConfig().dir(), true, false), out);
    ClusterAnalytics.Deployed job = analytics.deploy();
    out.printf("chaos step=analytics job=%s%n", job.jobId());
    Map<String, Pipeline.Component> components = new LinkedHashMap<>();
    components.put("correlator", Pipeline.correlator(e, state, correlatorPort));
    components.put("sink", Pipeline.sink(e, state));
    Map<String, Pipeline> running = new LinkedHashMap<>();
    PageLedger pages = new PageLedger();
    try (NotificationReceiver receiver = new NotificationReceiver(receiverPort, state.resolve("logs/notifications.log"), out)
        .onNotification((name, body) -> record(pages, name, body)).start();
        FaultInjector faults = new FaultInjector(stack, rest, job.jobId(), components, running, out)) {
      for (Map.Entry<String, Pipeline.Component> c : components.entrySet()) {
        Pipeline p = new Pipeline(state, List.of(c.getValue()));
        p.start(out, false);
        running.put(c.getKey(), p);
      }
      List<String> notInjected = new ArrayList<>();
      List<FaultKind> selected = new ArrayList<>(o.faults());
      ChaosAgent agent = startAgent(selected, notInjected, e, state);
      faults.withAgent(agent);
      long minutesMs = Math.round(o.minutes() * 60_000);
      long start = System.currentTimeMillis() / 1000 * 1000 + 2000;
      SimConfig sim = SimConfig.of(o.nodes(), ScenarioLoader.load(SCENARIO), o.seed()).withStart(start)
          .withDuration(Duration.ofMillis(minutesMs));
      ChaosFleet fleet = new ChaosFleet(new FleetSimulator(sim), e.kafka(), e.registry());
      Thread fleetThread = new Thread(fleet, "chaos-fleet");
      fleetThread.setDaemon(true);
      fleetThread.start();
      ChaosSchedule schedule = ChaosSchedule.plan(Duration.ofMillis(minutesMs), WARMUP, selected);
      out.printf("chaos step=fleet nodes=%d minutes=%.1f faults=%d alertmanager_down_s=%d start_ms=%d%n", o.nodes(),
          o.minutes(), schedule.entries().size(), schedule.alertmanagerDown().toSeconds(), start);
      List<FaultOutcome> outcomes = new ArrayList<>();
      for (ChaosSchedule.Entry en : schedule.entries()) {
        while (System.currentTimeMillis() < start + en.at().toMillis()) {
          faults.supervise();
          Thread.sleep(Math.min(1000, Math.max(1, start + en.at().toMillis() - System.currentTimeMillis())));
        }
        double atS = (System.currentTimeMillis() - start) / 1000.0;
        outcomes.add(faults.inject(en.kind(), atS, schedule.alertmanagerDown()));
      }
      while (fleetThread.isAlive() && System.currentTimeMillis() < start + minutesMs + 180_000) {
        faults.supervise();
        fleetThread.join(1000);
      }
      if (fleetThread.isAlive()) {
        throw new IllegalStateException("chaos: the fleet did not finish within 3 minutes of its end");
      }
      if (fleet.error() != null) {
        throw new IllegalStateException("chaos: the fleet stopped early: " + fleet.error(), fleet.error());
      }
      out.printf("chaos step=drain generated=%d acked=%d failed=%d%n", fleet.generated(), fleet.acked().total(),
          fleet.failed());
      if (agent != null) {
        agent.finish(Duration.ofSeconds(60));
      }
      drain(faults);
      Thread.sleep(NOTIFY_SETTLE.toMillis());
      Map<String, Long> deadLetters = countDeadLetters(e);
      RecordTally stored = storedIds(e.jdbc(), state);
      RecordTally onTopics = TopicTally.rawIds(e.kafka(), e.registry(), RecordId.RAW_TOPICS);
      // the simulated fleet against what the broker acknowledged to it; the agent against its own agent_seq
      RawVerdict raw = RawVerdict.of(fleet.acked(), stored.without(ChaosAgent.NODE), onTopics.without(ChaosAgent.NODE));
      AgentVerdict agentVerdict = agent == null ? null : AgentVerdict.of(ChaosAgent.NODE,
          AgentVerdict.rowsBySeq(stored, Topics.GPU, ChaosAgent.NODE), agent.droppedCounted());
      if (agentVerdict != null) {
        out.printf("chaos agent node=%s first_seq=%d last_seq=%d stored=%d missing=%d dropped_counted=%d lost=%d"
            + " stored_twice=%d missing_sample=%s%n", agentVerdict.node(), agentVerdict.firstSeq(), agentVerdict.lastSeq(),
            agentVerdict.stored(), agentVerdict.missing(), agentVerdict.droppedCounted(), agentVerdict.lost(),
            agentVerdict.duplicatedStored(), agentVerdict.missingSample());
        Map<Long, Integer> onTopic = AgentVerdict.rowsBySeq(onTopics, Topics.GPU, ChaosAgent.NODE);
        List<Long> sentAgain = onTopic.entrySet().stream().filter(x -> x.getValue() > 1).map(Map.Entry::getKey).toList();
        out.printf("chaos agent node=%s on_topic=%d copies_sent_again=%d sent_again_sample=%s%n", ChaosAgent.NODE,
            onTopic.size(), sentAgain.size(), sentAgain.subList(0, Math.min(10, sentAgain.size())));
      }
      long[] agentAnomalies = {0};
      AnomalyDiff anomalies = compareAnomalies(e, sim, fleet.acked(), analyticsConfig, start + minutesMs, agentAnomalies);
      long settleStart = System.nanoTime();
      PageLedger.Verdict verdict = pages.settledVerdict(() -> activeAlerts(e.alertmanager()), RESOLUTION_IN_FLIGHT,
          Duration.ofSeconds(1), d -> Thread.sleep(d.toMillis()));
      out.printf("chaos step=notifications-settled waited_s=%.1f incidents=%d resolutions=%d missing=%d%n",
          (System.nanoTime() - settleStart) / 1e9, verdict.incidents(), verdict.resolutionsDelivered(),
          verdict.resolutionMissing().size());
      return new ChaosReport(o.nodes(), o.minutes(), outcomes, faults.unplannedExits(), notInjected, raw, anomalies,
          verdict, deadLetters, agentVerdict, agentAnomalies[0]);
    } finally {
      running.values().forEach(Pipeline::close);
      try {
        rest.cancel(job.jobId()); // the run's state directory is wiped by the next run: no savepoint
      } catch (RuntimeException ex) {
        out.printf("chaos analytics=cancel-failed job=%s reason=\"%s\"%n", job.jobId(), ex.getMessage());
      }
    }
  }

  /**
   * Starts the real node agent when a selected fault needs it; a fault that cannot run here (no
   * agent jar, no tmpfs mount) leaves {@code selected} with its reason in {@code notInjected}, and so
   * does each agent fault not selected.
   */
  private ChaosAgent startAgent(List<FaultKind> selected, List<String> notInjected, Endpoints e, Path state)
      throws Exception {
    for (FaultKind k : List.of(FaultKind.AGENT, FaultKind.SPOOL_FULL)) {
      if (!selected.contains(k)) {
        notInjected.add(AGENT_FAULTS.get(k) + " (not selected; --faults " + k.label() + " runs it)");
      }
    }
    if (selected.stream().noneMatch(FaultKind::needsAgent)) {
      return null;
    }
    if (agentJar == null || !Files.isRegularFile(agentJar)) {
      for (FaultKind k : List.copyOf(selected)) {
        if (k.needsAgent()) {
          String why = "no agent jar at " + agentJar + " (mvn package builds it)";
          out.printf("chaos fault=%s status=skipped reason=\"%s\"%n", k.label(), why);
          notInjected.add(AGENT_FAULTS.get(k) + " (skipped: " + why + ")");
          selected.remove(k);
        }
      }
      return null;
    }
    Path dir = state.resolve("agent");
    ChaosAgent agent;
    try {
      agent = new ChaosAgent(agentJar, agentExamples, dir, e.kafka(), e.registry(), selected.contains(FaultKind.SPOOL_FULL),
          out);
    } catch (ChaosAgent.SpoolFsUnavailable ex) {
      out.printf("chaos fault=spool-full status=skipped reason=\"%s\"%n", ex.getMessage().replace('"', '\''));
      notInjected.add(AGENT_FAULTS.get(FaultKind.SPOOL_FULL) + " (skipped: " + ex.getMessage() + ")");
      selected.remove(FaultKind.SPOOL_FULL);
      agent = new ChaosAgent(agentJar, agentExamples, dir, e.kafka(), e.registry(), false, out);
    }
    agentRef.set(agent);
    agent.start();
    return agent;
  }

  /** Waits until the sink and the correlator have consumed everything (lag 0), up to {@link #DRAIN_LIMIT}. */
  private void drain(FaultInjector faults) throws Exception {
    long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
    Map<String, Long> lag = Map.of();
    while (System.nanoTime() < deadline) {
      faults.supervise();
      try {
        lag = faults.lag();
        if (lag.values().stream().allMatch(l -> l == 0)) {
          out.printf("chaos step=drained lag=%s%n", lag);
          return;
        }
      } catch (Exception ex) {
        out.printf("chaos drain lag=unknown reason=\"%s\"%n", ex.getMessage());
      }
      Thread.sleep(2000);
    }
    out.printf("chaos step=drain status=incomplete lag=%s (counting anyway)%n", lag);
  }

  private static void record(PageLedger pages, String receiver, JsonNode body) {
    for (JsonNode a : body.path("alerts")) {
      pages.add(receiver, a.path("status").asText(), a.path("fingerprint").asText(), AlertText.describe(a));
    }
  }

  /**
   * Every raw record in TimescaleDB, by (topic, source, agent_seq), with how many rows each has; read
   * as the reader role with the local stack's password file under {@code state}.
   */
  static RecordTally storedIds(String jdbc, Path state) throws Exception {
    RecordTally t = new RecordTally();
    java.util.Properties login = new java.util.Properties();
    login.setProperty("user", LocalEndpoints.JDBC_READER_USER);
    Path secret = DbPassword.secretsFile(state, LocalEndpoints.JDBC_READER_USER);
    if (Files.isRegularFile(secret)) {
      login.setProperty("password", DbPassword.read(secret, "the local stack's password file"));
    }
    try (Connection c = DriverManager.getConnection(jdbc, login); Statement st = c.createStatement()) {
      for (Map.Entry<String, String[]> en : RAW_TABLES.entrySet()) {
        String table = en.getValue()[0];
        String src = en.getValue()[1];
        try (ResultSet rs = st.executeQuery("SELECT " + src + ", agent_seq, count(*) FROM " + table + " GROUP BY 1, 2")) {
          while (rs.next()) {
            t.add(new RecordId(en.getKey(), rs.getString(1), rs.getLong(2)), rs.getInt(3));
          }
        }
      }
    }
    return t;
  }

  /**
   * The live anomalies (fleet.anomalies.v1) against a bounded analyze of the records the broker
   * acknowledged (and the inventory and jobs records), both up to {@code endMs} minus
   * {@link #COMPARE_MARGIN}.
   */
  private AnomalyDiff compareAnomalies(Endpoints e, SimConfig sim, RecordTally acked, Path analyticsConfig, long endMs,
      long[] agentAnomalies) throws Exception {
    long cut = endMs - COMPARE_MARGIN.toMillis();
    List<SpecificRecord> input = new FleetSimulator(sim).stream().filter(r -> {
      RecordId id = RecordId.of(r.topic(), r.value());
      return id == null || acked.count(id) > 0;
    }).map(SimRecord::value).collect(Collectors.toList());
    List<JsonLines.Line> batch = AnalyzeMain.run(new CollectionSource(input), AnalyticsConfig.load(analyticsConfig),
        AnalyticCatalog.all(), WallClock.system(), RuntimeExecutionMode.BATCH);
    List<Anomaly> batchAnomalies = batch.stream().filter(l -> l.value() instanceof Anomaly).map(l -> (Anomaly) l.value()).toList();
    List<Anomaly> live = new ArrayList<>();
    TopicTally.read(e.kafka(), e.registry(), List.of(Topics.ANOMALIES), r -> {
      if (r.value() instanceof Anomaly a) {
        if (ChaosAgent.NODE.equals(String.valueOf(a.getLabels().get("node")))) {
          agentAnomalies[0]++; // the agent's node is not in the simulated input analyze sees
          out.println("chaos anomaly=agent-node " + a.getLabels().get("alertname") + " " + a.getStatus());
        } else {
          live.add(a);
        }
      }
    });
    AnomalyDiff d = AnomalyDiff.of(distinct(batchAnomalies, cut), distinct(live, cut));
    d.missingLive().forEach(x -> out.println("chaos anomaly=missing-live " + x));
    d.extraLive().forEach(x -> out.println("chaos anomaly=extra-live " + x));
    return d;
  }

  /**
   * alertname|fingerprint|status|starts_at|ends_at|ts of every anomaly up to {@code cut}, once each
   * (a replay after a restart re-emits the same ones). CheckpointSlow is left out as in the cluster
   * test: its overdue check follows the watermark of all its inputs, which a live run moves
   * differently from a bounded one.
   */
  static Set<String> distinct(List<Anomaly> anomalies, long cut) {
    return anomalies.stream().filter(a -> a.getTs() <= cut)
        .filter(a -> !"CheckpointSlow".equals(a.getLabels().get("alertname")))
        .map(a -> a.getLabels().get("alertname") + "|" + a.getFingerprint() + "|" + a.getStatus() + "|" + a.getStartsAt()
            + "|" + a.getEndsAt() + "|" + a.getTs())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * The dead letters of the run by "stage source_topic kind", the kind being the reason up to its
   * first colon, and "of chaos-agent-0" after it for a record of the real agent's node: its backlog
   * after an outage is to be analysed (pipeline.catch_up_ms), so such a dead letter fails the run.
   */
  private static final java.util.regex.Pattern LATE_TS = java.util.regex.Pattern.compile("ts=(\\d+) watermark=(-?\\d+)");

  private Map<String, Long> countDeadLetters(Endpoints e) {
    Map<String, Long> byKind = new java.util.TreeMap<>();
    long[] printed = {0};
    Set<String> agentLate = new TreeSet<>();
    TopicTally.read(e.kafka(), e.registry(), List.of(Topics.DLQ), r -> {
      if (r.value() instanceof DeadLetter d) {
        String reason = String.valueOf(d.getReason());
        String kind = reason.contains(":") ? reason.substring(0, reason.indexOf(':')) : reason;
        // the agent's backlog must be analysed: a dead letter of its node is never the expected kind
        boolean agentNode = ChaosAgent.NODE.equals(String.valueOf(d.getKey()));
        byKind.merge(d.getStage() + " " + d.getSourceTopic() + " " + kind.trim() + (agentNode ? " of " + ChaosAgent.NODE : ""),
            1L, Long::sum);
        if ((agentNode || !kind.trim().equals(ChaosReport.EXPECTED_DEAD_LETTER)) && printed[0]++ < 10) {
          out.printf("chaos dead-letter stage=%s topic=%s reason=\"%s\"%n", d.getStage(), d.getSourceTopic(),
              reason.replace('"', '\''));
        }
        if (agentNode) {
          java.util.regex.Matcher m = LATE_TS.matcher(reason);
          if (m.find()) {
            agentLate.add(m.group(1) + "@" + m.group(2));
          }
        }
      }
    });
    if (!agentLate.isEmpty()) {
      // which of the agent's sample times were refused, and the watermark each met: when, against the faults
      out.printf("chaos dead-letter node=%s late_ts_at_watermark=%s%n", ChaosAgent.NODE, agentLate);
    }
    return byKind;
  }

  /** Fingerprints of the alerts Alertmanager still holds as active. */
  private static Set<String> activeAlerts(String alertmanager) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(alertmanager + "/api/v2/alerts?active=true&silenced=true&inhibited=true")).timeout(Duration.ofSeconds(10))
        .build(), HttpResponse.BodyHandlers.ofString());
    Set<String> out = new HashSet<>();
    for (JsonNode a : JSON.readTree(r.body())) {
      String ends = a.path("endsAt").asText("");
      if (ends.isEmpty() || Instant.parse(ends).isAfter(Instant.now())) {
        out.add(a.path("fingerprint").asText());
      }
    }
    return out;
  }

  /**
   * Every alert its own notification group (group_by '...'), so a notification names one incident;
   * a second firing notification for it is a second page. Notifications go out within seconds, and
   * never repeat within the run.
   */
  static void writeAlertmanagerConfig(Path file, int receiverPort) throws IOException {
    String url = "http://127.0.0.1:" + receiverPort;
    Files.writeString(file, String.join("\n",
        "# written by bench chaos: one group per alert, quick notifications, no repeats within a run",
        "route:",
        "  receiver: ticket",
        "  group_by: ['...']",
        "  group_wait: 2s",
        "  group_interval: 10s",
        "  repeat_interval: 24h",
        "  routes:",
        "    - receiver: pager",
        "      matchers: ['severity=\"critical\"']",
        "    - receiver: ticket",
        "      matchers: ['severity=\"warning\"']",
        "    - receiver: blackhole",
        "      matchers: ['severity=\"info\"']",
        "receivers:",
        "  - name: pager",
        "    webhook_configs: [{url: '" + url + "/pager', send_resolved: true}]",
        "  - name: ticket",
        "    webhook_configs: [{url: '" + url + "/ticket', send_resolved: true}]",
        "  - name: blackhole",
        ""));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
