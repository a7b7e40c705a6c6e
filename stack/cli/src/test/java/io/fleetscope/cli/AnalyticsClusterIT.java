package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.AnalyticCatalog;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.flink.RunMain;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.CollectionSource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.flink.FlinkJobs;
import io.fleetscope.stack.services.flink.FlinkRest;
import io.fleetscope.stack.services.flink.LocalFlink;
import io.fleetscope.stack.services.flink.OperatorNames;
import io.fleetscope.streams.AlertSink;
import io.fleetscope.streams.CorrelatorApp;
import io.fleetscope.streams.CorrelatorConfig;
import io.fleetscope.streams.OutboundAlert;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analytics job jar on a real Flink session cluster (a JobManager and TaskManagers as child JVMs
 * from the Flink runtime jars, nothing of ours on their classpath), reading and writing a real broker
 * through the real registry, against bounded {@code analyze} of the same input:
 *
 * <ul>
 *   <li>a TaskManager killed with SIGKILL mid-stream and a new one started: the job recovers from its
 *       last checkpoint, re-emits what followed it, and the distinct anomalies (fingerprint, status,
 *       start, end, time) equal analyze's; the correlator turns the replayed episodes into no second
 *       page and no reopened incident;
 *   <li>stop with a savepoint at parallelism 1 and resubmit at 2, spread over two TaskManagers: state
 *       continues through the rescale (equal to analyze over the whole input, where analyze over the
 *       second part alone differs: new warm-ups, a second CoolantFlowLow); a program without some of
 *       the savepoint's operators is refused naming one of them.
 * </ul>
 *
 * The input is the simulator's {@code cluster-recovery} scenario (6 nodes, 12 minutes of event time:
 * a CDU loses flow and recovers, a GPU's cold plate loses contact, a GPU's HBM degrades). Checkpoints
 * are taken by the test (the job's own interval is an hour), so where they fall is known. Only
 * anomalies up to 10 minutes in are compared: after the last record the live job's watermark stops
 * 5 s short of it, where bounded analyze evaluates everything.
 */
class AnalyticsClusterIT {
  private static final int NODES = 6;
  /** Recent enough for the topics' 7-day retention and the far-future check alike. */
  private static final long START_MS = System.currentTimeMillis() / 60_000 * 60_000 - Duration.ofMinutes(20).toMillis();
  private static final long CUT_MS = START_MS + Duration.ofMinutes(10).toMillis();
  private static final Duration SETTLE = Duration.ofSeconds(150);

  private static LocalFlink flink;
  private static Path jar;
  private static Path analyticsConfig;
  private static List<SimRecord> input;
  private static Set<String> expected;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startCluster() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isRegularFile(root.resolve("stack/flink-cluster/pom.xml"))) {
      root = root.getParent();
    }
    jar = ClusterAnalytics.jobJar(root);
    assertThat(jar).as("the job jar (mvn package builds it before the integration tests)").isRegularFile();
    Path dir = Files.createTempDirectory("fleetscope-cluster-it-");
    // one slot per TaskManager: parallelism 2 needs two of them, so a rescale really spreads the job
    flink = LocalFlink.start(LocalFlink.Config.forTests(dir.resolve("flink"), LocalFlink.findLibDir(root))
        .withSlots(1).withMemory("768m", "1280m"));
    flink.startTaskManager();
    analyticsConfig = dir.resolve("analytics.yaml");
    // checkpoints only when the test asks for them; a partition counts as idle after 30 s without
    // records, events included: with the default 2 s for event topics, a source subtask starved of CPU
    // for longer (seen in CI, load average 40) let the watermark pass its XIDs, which then came late
    Files.writeString(analyticsConfig,
        "pipeline:\n  checkpoint_interval_ms: 3600000\n  idleness_ms: 30000\n  event_idleness_ms: 30000\n");
    String yaml;
    try (InputStream in = AnalyticsClusterIT.class.getResourceAsStream("/cluster-recovery.yaml")) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    SimConfig sim = SimConfig.of(NODES, ScenarioLoader.parse(yaml, "cluster-recovery.yaml"), 7L).withStart(START_MS);
    input = new FleetSimulator(sim).stream().toList();
    expected = analyze(input);
    assertThat(expected).as("the scenario's anomalies").hasSizeGreaterThan(100)
        .anyMatch(a -> a.startsWith("CoolantFlowLow|") && a.contains("|resolved|"))
        .anyMatch(a -> a.startsWith("GpuEccCorrectableRising|"));
  }

  /** Whatever a test left running (a failed assertion skips its own cancel): its slots are the next test's. */
  @org.junit.jupiter.api.AfterEach
  void cancelRunningJobs() {
    for (FlinkRest.JobSummary j : flink.rest().jobs()) {
      if (!List.of("FINISHED", "CANCELED", "FAILED").contains(j.state())) {
        flink.rest().cancel(j.id());
      }
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (flink.rest().overview().path("slots-available").asInt() < flink.taskManagers().size()
        && System.nanoTime() < deadline) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @AfterAll
  static void stopCluster() {
    if (flink != null) {
      flink.stop();
    }
  }

  @Test
  void aTaskManagerKilledMidStreamRecoversWithTheSameAnomaliesAndNoSecondPage() throws Exception {
    try (Pipeline p = Pipeline.start(tmp)) {
      RecordingSink pages = new RecordingSink();
      RecordingSink unguardedPages = new RecordingSink();
      CorrelatorConfig cc = correlatorConfig(p, tmp.resolve("correlator"), "it-correlator", Topics.ALERTS, "3600");
      // the same correlator without the replay guard, on the same anomalies: shows what the guard absorbs
      CorrelatorConfig unguarded = correlatorConfig(p, tmp.resolve("correlator-unguarded"), "it-correlator-unguarded",
          "it.alerts.unguarded", "0");
      try (CorrelatorApp.Running correlator = CorrelatorApp.start(cc, new RestSchemaRegistryClient(p.registry.url()), pages);
          CorrelatorApp.Running without = CorrelatorApp.start(unguarded, new RestSchemaRegistryClient(p.registry.url()),
              unguardedPages)) {
        String job = submit(p, 2, Optional.empty(), false);
        p.publish(input, r -> ts(r) < START_MS + 50_000);
        Thread.sleep(3000);
        long before = FlinkJobs.checkpoint(flink.rest(), job, Duration.ofSeconds(60));

        // the whole cooling incident (fires at 70 s, resolves at 245 s) after that checkpoint
        p.publish(input, r -> ts(r) >= START_MS + 50_000 && ts(r) < START_MS + 300_000);
        p.await("the CoolantFlowLow resolution", Duration.ofSeconds(120),
            an -> an.stream().anyMatch(a -> a.getLabels().get("alertname").equals("CoolantFlowLow")
                && a.getStatus().equals("resolved")));
        assertThat(flink.rest().checkpoints(job).latestId()).as("no checkpoint since the test's").isEqualTo(before);

        Process victim = flink.taskManagers().get(0);
        long killedAt = System.nanoTime();
        flink.killTaskManager(victim);
        flink.startTaskManager();
        long deadline = killedAt + Duration.ofSeconds(120).toNanos();
        while (!(String.valueOf(flink.rest().checkpoints(job).restoredPath()).endsWith("chk-" + before)
            && flink.rest().allTasksRunning(job))) {
          assertThat(System.nanoTime()).as("the job recovers from chk-%d", before).isLessThan(deadline);
          Thread.sleep(200);
        }
        long recoveryMs = (System.nanoTime() - killedAt) / 1_000_000;
        // the 30 s target is measured in BENCHMARKS.md; here the test JVM, two TaskManagers and a broker
        // share two cores, and most of the time is the new TaskManager's JVM starting
        System.out.printf("cluster-it recovery_ms=%d (kill to every task running, restored from chk-%d)%n", recoveryMs, before);
        assertThat(recoveryMs).as("running again after the kill").isLessThan(90_000);

        p.publish(input, r -> ts(r) >= START_MS + 300_000);
        List<Anomaly> live = p.awaitAll(expected, SETTLE);
        assertThat(distinct(live)).isEqualTo(expected);
        long flowLowFirings = live.stream().filter(a -> a.getLabels().get("alertname").equals("CoolantFlowLow")
            && a.getStatus().equals("firing")).count();
        assertThat(flowLowFirings).as("the recovery replayed the incident (at-least-once outputs)").isGreaterThanOrEqualTo(2);

        // the correlator saw the incident twice and paged once; every episode of every incident fired once
        Thread.sleep(3000);
        Map<String, List<Alert>> incidents = p.incidents(Topics.ALERTS);
        assertThat(incidents).isNotEmpty();
        for (Map.Entry<String, List<Alert>> e : incidents.entrySet()) {
          assertThat(firingEpisodes(e.getValue())).as("episodes of incident %s", e.getKey()).doesNotHaveDuplicates();
          assertThat(e.getValue().stream().map(Alert::getVersion).distinct().count()).as("versions of %s", e.getKey())
              .isEqualTo(e.getValue().size());
        }
        String cooling = coolingIncident(incidents);
        assertThat(firingEpisodes(incidents.get(cooling))).as("the cooling incident's pages").hasSize(1);
        assertThat(pages.firstFirings(cooling)).as("cooling incident sent to Alertmanager as firing").isEqualTo(1);
        // without the guard the replayed episode is paged a second time
        Map<String, List<Alert>> withoutGuard = p.incidents("it.alerts.unguarded");
        assertThat(firingEpisodes(withoutGuard.get(coolingIncident(withoutGuard)))).as("unguarded cooling incident")
            .hasSize(2).containsOnly(firingEpisodes(incidents.get(cooling)).get(0));
        cancel(job);
      }
    }
  }

  @Test
  void stopWithSavepointAtParallelismOneAndResubmitAtTwoContinuesTheState() throws Exception {
    long split = START_MS + 150_000;
    try (Pipeline p = Pipeline.start(tmp)) {
      String first = submit(p, 1, Optional.empty(), false);
      p.publish(input, r -> ts(r) < split);
      Thread.sleep(8000);
      String savepoint = FlinkJobs.stopWithSavepoint(flink.rest(), first, Duration.ofMinutes(2));

      // a program without some of the savepoint's operators is refused, naming one of them
      OperatorNames names = OperatorNames.none().record(RunMain.operatorUids(args(p, "--only", "rail").toArray(String[]::new)))
          .record(RunMain.operatorUids(args(p).toArray(String[]::new)));
      FlinkJobs.RestorePoint point = FlinkJobs.newestRestorePoint(flink.config().savepointDir(), flink.config().checkpointDir())
          .orElseThrow();
      assertThat(point.uri()).isEqualTo(Path.of(java.net.URI.create(savepoint)).toUri().toString());
      assertThatThrownBy(() -> FlinkJobs.submit(flink.rest(), new FlinkJobs.Submission(jar, RunMain.class.getName(),
          args(p, "--only", "rail"), 2, Optional.of(point), false), names))
          .isInstanceOf(FlinkJobs.UnrestorableStateException.class)
          .hasMessageContaining("is not in this program")
          .satisfies(e -> assertThat(((FlinkJobs.UnrestorableStateException) e).operator()).matches("[a-z0-9-]+.* \\([0-9a-f]{32}\\)"));

      String second = submit(p, 2, Optional.of(point), false);
      assertThat(flink.rest().checkpoints(second).restoredPath()).isNotNull();
      for (var v : flink.rest().job(second).path("vertices")) {
        assertThat(v.path("parallelism").asInt()).as("rescaled from 1").isEqualTo(2);
      }
      assertThat(flink.rest().overview().path("slots-available").asInt()).as("both TaskManagers' slots in use").isZero();
      p.publish(input, r -> ts(r) >= split);
      List<Anomaly> live = p.awaitAll(expected, SETTLE);
      assertThat(distinct(live)).isEqualTo(expected);

      // without the state the second part tells another story: warm-ups again, a second CoolantFlowLow
      long from = split;
      Set<String> fresh = analyze(input.stream().filter(r -> ts(r) >= from || isTopology(r)).toList());
      Predicate<String> after = a -> Long.parseLong(a.substring(a.lastIndexOf('|') + 1)) >= from;
      assertThat(fresh.stream().filter(after).collect(Collectors.toSet()))
          .isNotEqualTo(expected.stream().filter(after).collect(Collectors.toSet()));
      assertThat(fresh).anyMatch(a -> a.startsWith("CoolantFlowLow|") && a.contains("|firing|" + from + "|"));
      cancel(second);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private static String submit(Pipeline p, int parallelism, Optional<FlinkJobs.RestorePoint> restore, boolean allow) {
    String job = FlinkJobs.submit(flink.rest(), new FlinkJobs.Submission(jar, RunMain.class.getName(), args(p),
        parallelism, restore, allow), OperatorNames.none());
    FlinkJobs.awaitRunning(flink.rest(), job, Duration.ofSeconds(120), restore.map(FlinkJobs.RestorePoint::uri).orElse(null),
        OperatorNames.none());
    return job;
  }

  private static void cancel(String job) {
    flink.rest().cancel(job);
  }

  private static List<String> args(Pipeline p, String... more) {
    List<String> a = new ArrayList<>(List.of("--kafka", p.kafka.bootstrapServers(), "--registry", p.registry.url(),
        "--config", analyticsConfig.toString(), "--group-id", "it-analytics"));
    a.addAll(List.of(more));
    return a;
  }

  /** Bounded analyze of these records: the distinct anomalies up to the cut. */
  private static Set<String> analyze(List<SimRecord> records) throws Exception {
    List<SpecificRecord> values = records.stream().map(SimRecord::value).toList();
    List<JsonLines.Line> out = AnalyzeMain.run(new CollectionSource(values), AnalyticsConfig.load(analyticsConfig),
        AnalyticCatalog.all(), WallClock.system(), RuntimeExecutionMode.BATCH);
    return distinct(out.stream().filter(l -> l.value() instanceof Anomaly).map(l -> (Anomaly) l.value()).toList());
  }

  /**
   * alertname|fingerprint|status|starts_at|ends_at|ts of every anomaly up to the cut, once each.
   * CheckpointSlow is left out: its overdue check runs on the watermark of all of the checkpoint
   * function's inputs, which a live run moves differently from a bounded one (a false warning that
   * fires and resolves at once, seen in one run of three here; the detection-quality issue tracks it).
   */
  static Set<String> distinct(List<Anomaly> anomalies) {
    return anomalies.stream().filter(a -> a.getTs() <= CUT_MS)
        .filter(a -> !"CheckpointSlow".equals(a.getLabels().get("alertname")))
        .map(a -> a.getLabels().get("alertname") + "|" + a.getFingerprint() + "|" + a.getStatus() + "|" + a.getStartsAt()
            + "|" + a.getEndsAt() + "|" + a.getTs())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static long ts(SimRecord r) {
    Object v = r.value().getSchema().getField("ts") == null ? null : r.value().get(r.value().getSchema().getField("ts").pos());
    return v instanceof Long l ? l : Long.MIN_VALUE;
  }

  private static boolean isTopology(SimRecord r) {
    return r.topic().equals(Topics.INVENTORY) || r.topic().equals(Topics.JOBS);
  }

  /**
   * The start times of an incident's firing episodes, in the order they were sent: each time it
   * goes from nothing or resolved to firing. A replayed episode shows as a start time twice.
   */
  static List<Long> firingEpisodes(List<Alert> versions) {
    List<Long> starts = new ArrayList<>();
    String last = "resolved";
    for (Alert a : versions) {
      if (a.getStatus().equals("firing") && last.equals("resolved")) {
        starts.add(a.getStartsAt());
      }
      last = a.getStatus();
    }
    return starts;
  }

  static String coolingIncident(Map<String, List<Alert>> incidents) {
    return incidents.entrySet().stream()
        .filter(e -> "CoolantFlowLow".equals(e.getValue().get(0).getLabels().get("alertname")))
        .map(Map.Entry::getKey).findFirst().orElseThrow();
  }

  private static CorrelatorConfig correlatorConfig(Pipeline p, Path state, String app, String alertsTopic,
      String replayHorizonS) {
    Map<String, String> o = new HashMap<>();
    o.put(CorrelatorConfig.APPLICATION_ID, app);
    o.put(CorrelatorConfig.TOPIC_ALERTS, alertsTopic);
    o.put(CorrelatorConfig.TOPIC_DLQ, app + ".dlq");
    o.put(CorrelatorConfig.REPLAY_HORIZON, replayHorizonS);
    o.put(CorrelatorConfig.KAFKA, p.kafka.bootstrapServers());
    o.put(CorrelatorConfig.REGISTRY, p.registry.url());
    o.put(CorrelatorConfig.ALERTMANAGER, "");
    o.put(CorrelatorConfig.HTTP_PORT, "-1");
    o.put(CorrelatorConfig.STATE_DIR, state.toString());
    // no hold-downs: only the replay guard stands between a re-emitted episode and a second page
    o.put(CorrelatorConfig.MIN_FIRING, "0");
    o.put(CorrelatorConfig.FLAP_HOLD, "0");
    o.put(CorrelatorConfig.TICK, "100");
    return CorrelatorConfig.of(o);
  }

  /** What the correlator hands to Alertmanager: counts how often each incident starts firing. */
  static final class RecordingSink implements AlertSink {
    private final Map<String, List<String>> statuses = new LinkedHashMap<>();

    @Override
    public synchronized CompletableFuture<Void> send(List<OutboundAlert> alerts) {
      for (OutboundAlert a : alerts) {
        List<String> s = statuses.computeIfAbsent(a.fingerprint(), k -> new ArrayList<>());
        String st = a.firing() ? "firing" : "resolved";
        if (s.isEmpty() || !s.get(s.size() - 1).equals(st)) {
          s.add(st);
        }
      }
      return CompletableFuture.completedFuture(null);
    }

    /** How many times an incident went from not firing to firing in what Alertmanager was sent. */
    synchronized long firstFirings(String fingerprint) {
      return statuses.getOrDefault(fingerprint, List.of()).stream().filter("firing"::equals).count();
    }

    @Override
    public String describe() {
      return "recording";
    }
  }

  /** A broker and registry of the test's own (the job reads fixed topic names), topics as `run` makes them. */
  static final class Pipeline implements AutoCloseable {
    final LocalKafka kafka;
    final SchemaRegistryServer registry;

    private Pipeline(LocalKafka kafka, SchemaRegistryServer registry) {
      this.kafka = kafka;
      this.registry = registry;
    }

    static Pipeline start(Path dir) throws Exception {
      LocalKafka k = LocalKafka.start(LocalKafka.Config.defaults(dir.resolve("kafka")));
      SchemaRegistryServer r = SchemaRegistryServer.start(k.bootstrapServers(), 0);
      TopicBootstrap.ensureAll(k.bootstrapServers());
      return new Pipeline(k, r);
    }

    void publish(List<SimRecord> records, Predicate<SimRecord> which) {
      try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(), registry.url())) {
        for (SimRecord r : records) {
          if (which.test(r)) {
            sink.accept(r);
          }
        }
        sink.flush();
        assertThat(sink.failed()).isZero();
      }
    }

    List<Anomaly> anomalies() {
      return read(Topics.ANOMALIES, Anomaly.class);
    }

    /** The anomalies on fleet.anomalies.v1 once one satisfies {@code done}. */
    List<Anomaly> await(String what, Duration timeout, Predicate<List<Anomaly>> done) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<Anomaly> an = anomalies();
      while (!done.test(an)) {
        assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
        Thread.sleep(1000);
        an = anomalies();
      }
      return an;
    }

    /** Waits until every expected anomaly is there, then a little longer for any extra ones. */
    List<Anomaly> awaitAll(Set<String> expected, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<Anomaly> an = anomalies();
      while (!distinct(an).containsAll(expected) && System.nanoTime() < deadline) {
        Thread.sleep(2000);
        an = anomalies();
      }
      Thread.sleep(5000);
      return anomalies();
    }

    /** An alerts topic by incident fingerprint, in order. */
    Map<String, List<Alert>> incidents(String topic) {
      Map<String, List<Alert>> out = new TreeMap<>();
      for (Alert a : read(topic, Alert.class)) {
        out.computeIfAbsent(a.getFingerprint(), k -> new ArrayList<>()).add(a);
      }
      return out;
    }

    private <T extends SpecificRecord> List<T> read(String topic, Class<T> type) {
      AvroDeserializer<T> de = new AvroDeserializer<>(new RestSchemaRegistryClient(registry.url()), type);
      List<T> out = new ArrayList<>();
      try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), new ByteArrayDeserializer())) {
        var parts = c.partitionsFor(topic).stream()
            .map(pi -> new org.apache.kafka.common.TopicPartition(topic, pi.partition())).toList();
        c.assign(parts);
        c.seekToBeginning(parts);
        Map<org.apache.kafka.common.TopicPartition, Long> end = c.endOffsets(parts);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(300))) {
            out.add(de.deserialize(r.topic(), r.value()));
          }
        }
      }
      return out;
    }

    @Override
    public void close() throws IOException {
      registry.close();
      kafka.close();
    }
  }
}
