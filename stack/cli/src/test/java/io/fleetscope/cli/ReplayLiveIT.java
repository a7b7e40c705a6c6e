package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalAlertmanager;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live half of the postmortem loop. The analytics as a streaming job ({@code RunMain --minicluster
 * --topic-prefix P --group-id P...}) and the correlator ({@code --topic-prefix P}), each in a JVM of
 * its own as {@code fleetscope run --topic-prefix P} starts them, read the topic set P&lt;topic&gt;
 * on the real broker and registry; {@code replay DIR --prefix P --speed max} publishes the bundle of
 * the scenario with a cooling incident and an ECC failure ({@link CoolingAndEcc}) into it; the
 * correlator delivers to a real Alertmanager with the deploy routing, whose {@code /pager} webhook
 * goes to the local notification receiver. Once the incidents settle they are compared with the
 * bundle's (what {@code analyze --in DIR} gives, which BundleLoopIT shows equal to what an export
 * records): the same fingerprints and members, starts within the analytics' window, the same pages
 * per incident, counted where Alertmanager sent them.
 *
 * <p>Where the live run differs from the bounded one, for a reason, and what the test holds to:
 * <ul>
 *   <li>End of input: bounded analyze releases everything held at the end of its input (it resolves
 *       the DBE an hour and the XIDs ten minutes after they started); the live job's watermark stops
 *       {@code out_of_orderness_ms} short of the last record. Every anomaly the live job wrote is one
 *       of the bounded run's, and every bounded anomaly missing live is such a release (its time is
 *       after the bundle's last record); the incidents they close stay firing live, so an incident's
 *       final status is not compared, its members and firing episodes are.
 *   <li>Arrival order: the correlator groups anomalies as they arrive, on the wall clock. At
 *       {@code --speed max} the analytics emit five minutes of event time within seconds, and the
 *       cooling loop's CoolantFlowLow can reach the correlator before the GPUs' thermal warnings that
 *       event time puts first: live they join the cooling incident at once; bounded (in event-time
 *       order) each is an incident of its own until the cause arrives. Such an incident, which paged
 *       nobody and whose members all belong to an incident both runs have with the same members, is
 *       counted and printed as absorbed; any other incident that appears, disappears or changes fails.
 *       (The bounded correlator puts a cause before the GPU alerts of the same ts, as the cooling
 *       loop's CoolantFlowLow and the GPUs' first thermal warnings are: on this bundle nothing is
 *       absorbed now; the allowance stays for a cause whose ts is after its members'.)
 *       At {@code -Dreplay-live.speed=1} (real time, not in CI) nothing may be absorbed.
 *   <li>Topology first: the analytics' fast path (XIDs, DBEs) labels a record with its rack from the
 *       inventory broadcast; in a job started on a backlog the XID source can win that race and the
 *       anomaly gets other labels (another fingerprint). The job is started before the replay, as it
 *       runs before the records come in a stack, and the replay sends the inventory first; that alone
 *       left the race open (the two sources poll independently: one clean-clone run in several got a
 *       GpuXid without its rack). The fast path so holds a record whose node has no inventory yet until
 *       it comes ({@code pipeline.inventory_hold_ms}, XidBeforeInventoryTest in flink-jobs).
 *       {@code -Dreplay-live.backlog=true} replays without waiting for the job, which then starts on
 *       the backlog, where the race is the rule rather than the exception.
 *   <li>Wall-clock grouping in Alertmanager: the test's copy of the deploy routing groups after 1 s
 *       instead of 10 s / 30 s / 5 min (how soon a page goes out, not whether).
 * </ul>
 */
class ReplayLiveIT {
  /** The analytics' window ({@code rail.window_ms}, the node analytics' tick): how far apart two starts may be. */
  static final long GRANULARITY_MS = 10_000;
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(150);
  /** How long the live incidents and pages must stay as they are before they count as settled. */
  private static final Duration QUIET = Duration.ofSeconds(10);
  /**
   * The replay's {@code --speed}: max in CI; {@code -Dreplay-live.speed=1} replays the bundle's five
   * minutes in real time (not in CI), where nothing may be absorbed.
   */
  static final String SPEED = System.getProperty("replay-live.speed", "max");

  @Test
  void replayThroughTheLiveAnalyticsAndCorrelatorGivesTheBundlesIncidentsAndPages(@TempDir Path tmp) throws Exception {
    long t0 = System.nanoTime();
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    List<JsonNode> pagerNotifications = new CopyOnWriteArrayList<>();
    try (NotificationReceiver receiver = new NotificationReceiver(0, tmp.resolve("notifications.log"), null)
        .onNotification((name, body) -> {
          if ("pager".equals(name)) {
            pagerNotifications.add(body);
          }
        }).start()) {
      LocalAlertmanager am = TestServices.alertmanager(alertmanagerConfig(tmp, receiver.port()));
      String prefix = "replay-live-it-" + System.nanoTime() + ".";
      Endpoints e = new Endpoints(kafka.bootstrapServers(), registry, "", am.url(), 0, "");
      Path state = tmp.resolve("state");
      try (Pipeline live = new Pipeline(state, Pipeline.prefixed(e, state, null, prefix, -1))) {
        long started = System.nanoTime();
        live.start(quiet, false);
        // the bounded run (shared with BundleLoopIT) while the live services start
        BundleReader bundle = CoolingAndEcc.bundle();
        List<JsonLines.Line> bounded = CoolingAndEcc.bounded().produced();
        List<Alert> recordedVersions = values(bounded, Topics.ALERTS, Alert.class);
        Map<String, IncidentSummary> recorded = IncidentSummary.of(recordedVersions);
        assertThat(recorded.values()).extracting(IncidentSummary::alertname).contains("CoolantFlowLow", "GpuEccUncorrectable");
        assertThat(recorded.values()).as("pages of the bundle's incidents").anyMatch(i -> i.pages() > 0);
        long boundedDone = System.nanoTime();
        if (!Boolean.getBoolean("replay-live.backlog")) {
          awaitAnalyticsJob(live, kafka, prefix);
        }

        String replayed = run("replay", bundle.dir().toString(), "--prefix", prefix, "--speed", SPEED,
            "--kafka", kafka.bootstrapServers(), "--registry", registry);
        assertThat(replayed).contains("replay done", "rejected=0");
        long replayDone = System.nanoTime();

        Settled s = settle(live, recorded, () -> read(kafka, registry, prefix + Topics.ALERTS, Alert.class), pagerNotifications);
        System.out.printf("replay-live-it speed=%s bounded_s=%.1f replay_done_s=%.1f settled_s=%.1f last_change_s=%.1f total_s=%.1f%n",
            SPEED, (boundedDone - t0) / 1e9, (replayDone - started) / 1e9, (s.at - started) / 1e9, (s.lastChange - started) / 1e9,
            (System.nanoTime() - t0) / 1e9);
        System.out.print(s.diff.table());

        // anomalies: the live ones are the bounded run's, less what only the end of input releases
        long lastInput = bundle.lines(r -> r.isInput()).stream().mapToLong(BundleReader::ts).max().orElseThrow();
        Set<String> boundedAnomalies = anomalyKeys(values(bounded, Topics.ANOMALIES, Anomaly.class));
        Set<String> liveAnomalies = anomalyKeys(read(kafka, registry, prefix + Topics.ANOMALIES, Anomaly.class));
        Set<String> liveOnly = new TreeSet<>(liveAnomalies);
        liveOnly.removeAll(boundedAnomalies);
        Set<String> boundedOnly = new TreeSet<>(boundedAnomalies);
        boundedOnly.removeAll(liveAnomalies);
        boundedOnly.forEach(k -> System.out.println("replay-live-it anomaly bounded-only " + k));
        assertThat(liveOnly).as("anomalies the live job wrote that the bounded run did not").isEmpty();
        assertThat(boundedOnly).as("bounded-only anomalies: end-of-input releases, after the last record at %d", lastInput)
            .allSatisfy(k -> assertThat(tsOf(k)).isGreaterThan(lastInput));

        // incidents: same fingerprints, members and starts, apart from those absorbed by their cause on arrival
        assertThat(s.diff.appeared()).as("incidents only the live run has:%n%s", s.diff.table()).isEmpty();
        assertThat(s.diff.changed()).as("incidents that changed:%n%s", s.diff.table()).isEmpty();
        List<String> absorbed = absorbed(recorded, s.summaries);
        absorbed.forEach(a -> System.out.println("replay-live-it absorbed " + a));
        if (!"max".equals(SPEED)) {
          assertThat(absorbed).as("at --speed %s the anomalies reach the correlator in event-time order: nothing absorbed", SPEED).isEmpty();
        }
        assertThat(recorded.keySet().stream().filter(fp -> !s.summaries.containsKey(fp)))
            .as("incidents only the bounded run has, other than those absorbed by their cause:%n%s", s.diff.table())
            .allMatch(fp -> absorbed.stream().anyMatch(a -> a.startsWith(fp + " ")));
        assertThat(s.summaries.keySet()).as("incidents on both sides").isNotEmpty()
            .allSatisfy(fp -> assertThat(s.summaries.get(fp).members()).as("members of %s", fp).isEqualTo(recorded.get(fp).members()));
        long maxStartDelta = s.summaries.keySet().stream()
            .mapToLong(fp -> Math.abs(s.summaries.get(fp).startsAt() - recorded.get(fp).startsAt())).max().orElse(0);

        // pages: each incident paged as often as in the bundle, where Alertmanager sent it
        Map<String, Integer> recordedPages = new TreeMap<>();
        recorded.forEach((fp, i) -> recordedPages.put(fp, s.summaries.containsKey(fp) ? i.pages() : 0));
        Map<String, Integer> livePages = new TreeMap<>(s.pages);
        recorded.keySet().forEach(fp -> livePages.putIfAbsent(fp, 0));
        assertThat(livePages).as("pages per incident, Alertmanager's /pager against the bundle's").isEqualTo(recordedPages);
        System.out.printf("replay-live-it incidents_bundle=%d incidents_live=%d absorbed=%d pages=%d anomalies_live=%d"
                + " anomalies_end_of_input=%d max_start_delta_ms=%d%n", recorded.size(), s.summaries.size(), absorbed.size(),
            livePages.values().stream().mapToInt(Integer::intValue).sum(), liveAnomalies.size(), boundedOnly.size(), maxStartDelta);
      }
    }
  }

  /** What the live side gave once it stopped changing. */
  record Settled(Map<String, IncidentSummary> summaries, Map<String, Integer> pages, IncidentDiff diff, long at, long lastChange) {}

  /**
   * Polls the live incidents and pages until they agree with the bundle's (as the test compares
   * them) and have not changed for {@link #QUIET}, or until {@link #SETTLE_TIMEOUT}; fails at once
   * when a live service exits.
   */
  private static Settled settle(Pipeline live, Map<String, IncidentSummary> recorded, Supplier<List<Alert>> versions,
      List<JsonNode> pagerNotifications) throws InterruptedException {
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    String last = null;
    long lastChange = System.nanoTime();
    while (true) {
      assertThat(live.firstDead()).as("a live service exited, see %s", live.logOf("analytics").getParent()).isNull();
      List<Alert> v = versions.get();
      Map<String, IncidentSummary> now = IncidentSummary.of(v);
      Map<String, Integer> pages = pages(v, pagerNotifications);
      IncidentDiff diff = IncidentDiff.of(recorded, now, GRANULARITY_MS);
      String state = v.size() + " " + now + " " + pages;
      long t = System.nanoTime();
      if (!state.equals(last)) {
        last = state;
        lastChange = t;
      }
      boolean agrees = diff.appeared().isEmpty() && diff.changed().isEmpty()
          && recorded.keySet().stream().allMatch(fp -> now.containsKey(fp) || absorbed(recorded, now).stream()
              .anyMatch(a -> a.startsWith(fp + " ")))
          && now.keySet().stream().allMatch(fp -> recorded.get(fp).pages() == pages.getOrDefault(fp, 0));
      if ((agrees && t - lastChange >= QUIET.toNanos()) || t > deadline) {
        return new Settled(now, pages, diff, t, lastChange);
      }
      Thread.sleep(1000);
    }
  }

  /**
   * The bundle's incidents that the live run has not, that paged nobody, and whose members all
   * belong to one incident both runs have with the same members: "fingerprint alertname -> incident".
   */
  static List<String> absorbed(Map<String, IncidentSummary> recorded, Map<String, IncidentSummary> live) {
    List<String> out = new ArrayList<>();
    for (IncidentSummary r : recorded.values()) {
      if (live.containsKey(r.fingerprint()) || r.pages() > 0) {
        continue;
      }
      live.values().stream()
          .filter(l -> recorded.containsKey(l.fingerprint()) && recorded.get(l.fingerprint()).members().equals(l.members()))
          .filter(l -> l.members().containsAll(r.members()))
          .findFirst()
          .ifPresent(l -> out.add(r.fingerprint() + " " + r.alertname() + " -> " + l.fingerprint() + " " + l.alertname()));
    }
    return out;
  }

  /**
   * Pages per live incident: the firing alerts Alertmanager sent to {@code /pager}, once per label
   * set and start (a notification carries every firing alert of its group again), each matched to the
   * incident whose labels it carries.
   */
  static Map<String, Integer> pages(List<Alert> versions, List<JsonNode> notifications) {
    Map<Map<String, String>, String> byLabels = new HashMap<>();
    for (Alert a : versions) {
      byLabels.put(Map.copyOf(a.getLabels()), a.getFingerprint());
    }
    Map<String, Set<String>> episodes = new TreeMap<>();
    for (JsonNode n : notifications) {
      for (JsonNode a : n.path("alerts")) {
        if (!"firing".equals(a.path("status").asText())) {
          continue;
        }
        Map<String, String> labels = new TreeMap<>();
        a.path("labels").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
        String fp = byLabels.getOrDefault(Map.copyOf(labels), "unmatched " + labels);
        episodes.computeIfAbsent(fp, k -> new TreeSet<>()).add(a.path("startsAt").asText());
      }
    }
    Map<String, Integer> out = new TreeMap<>();
    episodes.forEach((fp, starts) -> out.put(fp, starts.size()));
    return out;
  }

  /** Each anomaly as alertname|fingerprint|status|starts_at|ends_at|ts|labels. */
  static Set<String> anomalyKeys(List<Anomaly> anomalies) {
    Set<String> out = new TreeSet<>();
    for (Anomaly a : anomalies) {
      out.add(a.getLabels().get("alertname") + "|" + a.getFingerprint() + "|" + a.getStatus() + "|" + a.getStartsAt() + "|"
          + a.getEndsAt() + "|" + a.getTs() + "|" + new TreeMap<>(a.getLabels()));
    }
    return out;
  }

  private static long tsOf(String anomalyKey) {
    return Long.parseLong(anomalyKey.split("\\|")[5]);
  }

  /**
   * Waits until the analytics job has started on the empty topic set (its JVM creates the topics
   * P&lt;topic&gt; just before it submits the job) and a little longer for the job to start reading.
   */
  private static void awaitAnalyticsJob(Pipeline live, LocalKafka kafka, String prefix) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      while (!admin.listTopics().names().get().contains(prefix + Topics.THERMAL_RISK)) {
        assertThat(live.firstDead()).as("a live service exited, see %s", live.logOf("analytics").getParent()).isNull();
        assertThat(System.nanoTime()).as("the analytics create their topics").isLessThan(deadline);
        Thread.sleep(500);
      }
    }
    Thread.sleep(5000);
  }

  /** The deploy routing with its webhooks sent to {@code port} and its grouping waits at 1 s. */
  static Path alertmanagerConfig(Path tmp, int port) throws Exception {
    String yaml = Files.readString(Path.of("..", "..", "deploy", "alertmanager", "alertmanager.yml"));
    String changed = yaml.replace("http://127.0.0.1:19095/", "http://127.0.0.1:" + port + "/")
        .replaceAll("group_wait: \\d+[smh]", "group_wait: 1s")
        .replaceAll("group_interval: \\d+[smh]", "group_interval: 1s");
    assertThat(changed).as("the deploy routing's receivers and waits").doesNotContain(":19095/")
        .contains("http://127.0.0.1:" + port + "/pager", "group_wait: 1s", "group_interval: 1s");
    return Files.writeString(tmp.resolve("alertmanager.yml"), changed);
  }

  private static <T> List<T> values(List<JsonLines.Line> lines, String topic, Class<T> type) {
    return lines.stream().filter(l -> l.topic().equals(topic)).map(l -> type.cast(l.value())).toList();
  }

  /** Every record on {@code topic}, in order per partition. */
  static <T extends SpecificRecord> List<T> read(LocalKafka kafka, String registry, String topic, Class<T> type) {
    AvroDeserializer<T> de = new AvroDeserializer<>(new RestSchemaRegistryClient(registry), type);
    List<T> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), new ByteArrayDeserializer())) {
      if (!c.listTopics().containsKey(topic)) {
        return out;
      }
      List<TopicPartition> parts = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          out.add(de.deserialize(r.topic(), r.value()));
        }
      }
    }
    return out;
  }

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        Map.of()).execute(args);
    assertThat(code).as(Arrays.toString(args) + ": " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }
}
