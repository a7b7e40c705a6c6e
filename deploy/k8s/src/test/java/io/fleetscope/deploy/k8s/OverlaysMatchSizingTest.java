package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.schemas.Topics;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The overlays carry docs/sizing.md's numbers, and no consumer group has more members than partitions. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OverlaysMatchSizingTest {
  private List<Manifests> overlays;
  private SizingTable sizing;

  @BeforeAll
  void build() throws Exception {
    overlays = List.of(Manifests.build("overlays/small"), Manifests.build("overlays/large"));
    sizing = SizingTable.read();
  }

  @Test
  void theOverlaysTakeTheirColumnOfTheSizingTable() {
    for (Manifests m : overlays) {
      SizingTable.Column c = sizing.forOverlay(m.name());
      JsonNode brokers = m.get("KafkaNodePool", "broker").path("spec");
      assertThat(brokers.path("replicas").asInt()).as(m.name()).isEqualTo(c.integer("kafka_brokers"));
      assertThat(brokers.path("storage").path("size").asText()).as(m.name()).isEqualTo(c.integer("broker_disk_gb_each") + "G");
      JsonNode flink = m.get("FlinkDeployment", "fleetscope-analytics").path("spec");
      assertThat(flink.path("job").path("parallelism").asInt()).as(m.name()).isEqualTo(c.integer("flink_parallelism"));
      assertThat(Integer.parseInt(flink.path("flinkConfiguration").path("taskmanager.numberOfTaskSlots").asText()))
          .isEqualTo((int) sizing.in("slots_per_taskmanager"));
      assertThat(m.get("Deployment", "fleetscope-sink").path("spec").path("replicas").asInt()).as(m.name()).isEqualTo(c.integer("sink_replicas"));
      JsonNode db = Manifests.podSpec(m.get("StatefulSet", "fleetscope-timescaledb")).path("containers").get(0);
      assertThat(db.path("resources").path("requests").path("cpu").asText()).as(m.name()).isEqualTo(Integer.toString(c.integer("postgres_cores")));
    }
  }

  @Test
  void theSinksConsumersNeverOutnumberTheSmallestTopicsPartitions() {
    for (Manifests m : overlays) {
      int workers = 0;
      for (String a : ComponentsMatchCodeTest.strings(Manifests.podSpec(m.get("Deployment", "fleetscope-sink")).path("containers").get(0).path("args"))) {
        if (a.startsWith("--set=sink.workers=")) {
          workers = Integer.parseInt(a.substring("--set=sink.workers=".length()));
        }
      }
      assertThat(workers).as("sink.workers is set explicitly").isPositive();
      int consumers = workers * m.get("Deployment", "fleetscope-sink").path("spec").path("replicas").asInt();
      int fewest = m.ofKind("KafkaTopic").stream().filter(t -> Topics.find(t.path("spec").path("topicName").asText()).isPresent())
          .mapToInt(t -> t.path("spec").path("partitions").asInt()).min().orElseThrow();
      assertThat(consumers).as(m.name()).isLessThanOrEqualTo(fewest).isEqualTo(sizing.forOverlay(m.name()).integer("sink_consumers"));
      int parallelism = m.get("FlinkDeployment", "fleetscope-analytics").path("spec").path("job").path("parallelism").asInt();
      for (ObjectNode t : m.ofKind("KafkaTopic")) {
        String topic = t.path("spec").path("topicName").asText();
        if (topic.equals(Topics.GPU) || topic.equals(Topics.IB)) {
          assertThat(t.path("spec").path("partitions").asInt()).as(m.name() + " " + topic).isGreaterThanOrEqualTo(parallelism);
        }
      }
    }
  }
}
