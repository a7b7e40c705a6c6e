package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.agent.AgentMain;
import io.fleetscope.flink.RunMain;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.schemas.TopicSettings;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.stack.services.registry.KafkaSchemaLog;
import io.fleetscope.streams.CorrelatorConfig;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The KafkaTopics are the code's {@link Topics} (names, partitions, compaction, retention), and each
 * KafkaUser may do what its component's code does with Kafka and nothing else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaTopicsAndUsersTest {
  /** Topic configs Kubernetes adds to the code's own. */
  private static final Map<String, String> ADDED_CONFIGS = Map.of("min.insync.replicas", "2");
  /** The correlator's defaults (application id, topics). */
  private static final CorrelatorConfig CORRELATOR = CorrelatorConfig.of(Map.of());

  private List<Manifests> builds;
  private SizingTable sizing;

  @BeforeAll
  void build() throws Exception {
    builds = Manifests.buildAll();
    sizing = SizingTable.read();
  }

  @Test
  void theBaseHasTheCodesTopicsExactly() {
    Manifests base = builds.get(0);
    Map<String, TopicSettings> expected = new TreeMap<>();
    Topics.settings().forEach(t -> expected.put(t.name(), t));
    expected.put(KafkaSchemaLog.DEFAULT_TOPIC, TopicSettings.compacted(KafkaSchemaLog.DEFAULT_TOPIC, 1));
    assertThat(topics(base)).isEqualTo(expected);
  }

  @Test
  void theOverlaysChangeOnlyTheRawTopicsPartitionsAsTheSizingSays() {
    for (Manifests m : builds.subList(1, builds.size())) {
      int rawPartitions = sizing.forOverlay(m.name()).integer("raw_partitions");
      Map<String, TopicSettings> expected = new TreeMap<>();
      for (TopicSettings t : Topics.settings()) {
        boolean raw = t.name().equals(Topics.GPU) || t.name().equals(Topics.IB);
        expected.put(t.name(), raw ? t.withPartitions(rawPartitions) : t);
      }
      expected.put(KafkaSchemaLog.DEFAULT_TOPIC, TopicSettings.compacted(KafkaSchemaLog.DEFAULT_TOPIC, 1));
      assertThat(topics(m)).as(m.name()).isEqualTo(expected);
    }
  }

  @Test
  void everyTopicHasThreeReplicasAndBelongsToTheCluster() {
    for (Manifests m : builds) {
      for (ObjectNode t : m.ofKind("KafkaTopic")) {
        assertThat(t.path("spec").path("replicas").asInt()).as(Manifests.name(t)).isEqualTo(3);
        assertThat(t.path("metadata").path("labels").path("strimzi.io/cluster").asText()).isEqualTo(kafkaName(m));
      }
    }
  }

  private Map<String, TopicSettings> topics(Manifests m) {
    Map<String, TopicSettings> out = new TreeMap<>();
    for (ObjectNode t : m.ofKind("KafkaTopic")) {
      JsonNode spec = t.path("spec");
      Map<String, String> configs = new HashMap<>();
      spec.path("config").fields().forEachRemaining(e -> configs.put(e.getKey(), e.getValue().asText()));
      ADDED_CONFIGS.forEach((k, v) -> assertThat(configs.remove(k)).as(Manifests.name(t) + " " + k).isEqualTo(v));
      String name = spec.path("topicName").asText();
      assertThat(out).as("one KafkaTopic per topic").doesNotContainKey(name);
      out.put(name, new TopicSettings(name, spec.path("partitions").asInt(), configs));
    }
    return out;
  }

  // ---- users: what each component's code reads and writes

  @Test
  void theNodeAgentWritesWhatItsCollectorsAndItsDeadLettersNameAndReadsNothing() throws Exception {
    Set<String> written = new TreeSet<>();
    for (String c : List.of("gpu", "xid", "ib", "inventory", "jobs", "ckpt", "storage", "fabric", "nvlink")) {
      written.addAll(CodeTopics.usedBy(AgentMain.class, "io.fleetscope.agent.collectors." + c, false));
    }
    written.addAll(CodeTopics.usedBy(AgentMain.class, "io.fleetscope.agent.publish", false));
    assertThat(acls("agent")).isEqualTo(writes(written));
  }

  @Test
  void theFacilityAgentWritesPowerCoolantTheirInventoryAndDeadLetters() throws Exception {
    Set<String> written = new TreeSet<>();
    for (String c : List.of("pdu", "coolant")) {
      written.addAll(CodeTopics.usedBy(AgentMain.class, "io.fleetscope.agent.collectors." + c, false));
    }
    written.addAll(CodeTopics.usedBy(AgentMain.class, "io.fleetscope.agent.publish", false));
    assertThat(acls("facility-agent")).isEqualTo(writes(written));
  }

  @Test
  void theAnalyticsReadTheirInputsAndWriteTheRestOfWhatTheirCodeNames() throws Exception {
    Set<String> named = CodeTopics.usedBy(RunMain.class, "io.fleetscope.flink", true);
    Set<String> read = new TreeSet<>(FleetAnalytics.RAW_TOPICS);
    Set<String> written = new TreeSet<>(named);
    written.removeAll(read);
    Set<String> expected = new TreeSet<>(reads(read));
    expected.addAll(writes(written));
    expected.add("group " + RunMain.JOB_NAME + " prefix [Read]");
    assertThat(acls("analytics")).isEqualTo(expected);
    assertThat(written).contains(Topics.ANOMALIES, Topics.DLQ).doesNotContain(Topics.ALERTS);
  }

  @Test
  void theCorrelatorNeverReadsRawTelemetry() {
    String app = CORRELATOR.get(CorrelatorConfig.APPLICATION_ID);
    Set<String> expected = new TreeSet<>(reads(Set.of(CORRELATOR.get(CorrelatorConfig.TOPIC_ANOMALIES),
        CORRELATOR.get(CorrelatorConfig.TOPIC_INVENTORY), CORRELATOR.get(CorrelatorConfig.TOPIC_JOBS),
        CORRELATOR.get(CorrelatorConfig.TOPIC_CKPT))));
    expected.addAll(writes(Set.of(CORRELATOR.get(CorrelatorConfig.TOPIC_ALERTS),
        CORRELATOR.get(CorrelatorConfig.TOPIC_DLQ))));
    expected.add("topic " + app + " prefix [All]");
    expected.add("group " + app + " prefix [All]");
    assertThat(acls("correlator")).isEqualTo(expected);
    assertThat(acls("correlator")).noneMatch(a -> a.contains(Topics.GPU + " ") || a.contains(Topics.IB + " "));
  }

  @Test
  void theSinkReadsEveryTopicItStoresAndWritesOnlyDeadLetters() {
    assertThat(SinkConfig.TOPICS.defaultValue()).as("sink.topics default: every topic").isEmpty();
    Set<String> expected = new TreeSet<>(reads(Topics.all().keySet()));
    expected.add("topic " + SinkConfig.DLQ_TOPIC.defaultValue() + " literal [Write]");
    expected.add("group " + SinkConfig.GROUP_ID.defaultValue() + " prefix [Read]");
    assertThat(acls("sink")).isEqualTo(expected);
  }

  @Test
  void theRegistryOwnsOnlyItsLog() {
    assertThat(acls("registry")).containsExactly("topic " + KafkaSchemaLog.DEFAULT_TOPIC + " literal [Create, Describe, Read, Write]");
  }

  @Test
  void everyUserUsesScramAndTheSimpleAuthorizer() {
    for (Manifests m : builds) {
      assertThat(m.ofKind("KafkaUser")).extracting(Manifests::name)
          .containsExactlyInAnyOrder("agent", "facility-agent", "analytics", "correlator", "sink", "registry");
      for (ObjectNode u : m.ofKind("KafkaUser")) {
        assertThat(u.path("spec").path("authentication").path("type").asText()).isEqualTo("scram-sha-512");
        assertThat(u.path("spec").path("authorization").path("type").asText()).isEqualTo("simple");
      }
      ObjectNode kafka = m.get("Kafka", kafkaName(m));
      assertThat(kafka.path("spec").path("kafka").path("authorization").path("type").asText()).isEqualTo("simple");
      JsonNode listeners = kafka.path("spec").path("kafka").path("listeners");
      assertThat(listeners).hasSize(1);
      assertThat(listeners.get(0).path("tls").asBoolean()).isTrue();
      assertThat(listeners.get(0).path("authentication").path("type").asText()).isEqualTo("scram-sha-512");
    }
  }

  private static Set<String> reads(Set<String> topics) {
    return topics.stream().map(t -> "topic " + t + " literal [Read, Describe]").collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> writes(Set<String> topics) {
    return topics.stream().map(t -> "topic " + t + " literal [Write, Describe]").collect(Collectors.toCollection(TreeSet::new));
  }

  /** The ACLs of a user in every build (they must agree), one line each: type name pattern [operations]. */
  private Set<String> acls(String user) {
    Set<String> first = null;
    for (Manifests m : builds) {
      Set<String> out = new TreeSet<>();
      for (JsonNode a : m.get("KafkaUser", user).path("spec").path("authorization").path("acls")) {
        assertThat(a.path("type").asText("allow")).isEqualTo("allow");
        JsonNode r = a.path("resource");
        Set<String> ops = new LinkedHashSet<>();
        a.path("operations").forEach(o -> ops.add(o.asText()));
        String line = r.path("type").asText() + " " + r.path("name").asText() + " " + r.path("patternType").asText("literal") + " " + ops;
        assertThat(out.add(line)).as(user + ": duplicate ACL " + line).isTrue();
      }
      if (first != null) {
        assertThat(out).as(m.name() + " " + user).isEqualTo(first);
      }
      first = out;
    }
    return first;
  }

  static String kafkaName(Manifests m) {
    return Manifests.name(m.ofKind("Kafka").get(0));
  }
}
