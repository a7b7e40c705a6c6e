package io.fleetscope.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class TopicBootstrapTest {

  @Test
  void createsOnlyTheMissingTopicsWithTheirPartitionsAndConfigs() {
    List<NewTopic> missing = TopicBootstrap.missing(Set.of(Topics.GPU, Topics.ANOMALIES, "_schemas"), Topics.settings());
    assertThat(missing).extracting(NewTopic::name).hasSize(Topics.all().size() - 2)
        .doesNotContain(Topics.GPU, Topics.ANOMALIES).contains(Topics.INVENTORY, Topics.DLQ);
    NewTopic inventory = missing.stream().filter(t -> t.name().equals(Topics.INVENTORY)).findFirst().orElseThrow();
    assertThat(inventory.numPartitions()).isEqualTo(4);
    assertThat(inventory.replicationFactor()).as("the broker's default").isEqualTo((short) -1);
    assertThat(inventory.configs()).isEqualTo(Map.of("cleanup.policy", "compact"));
  }

  @Test
  void nothingIsMissingWhenEveryTopicExists() {
    assertThat(TopicBootstrap.missing(Topics.all().keySet(), Topics.settings())).isEmpty();
  }

  @Test
  void takesTopicsOutsideTheCatalogue() {
    List<NewTopic> missing = TopicBootstrap.missing(Set.of(), List.of(TopicSettings.compacted("_schemas", 1)));
    assertThat(missing).singleElement().satisfies(t -> {
      assertThat(t.name()).isEqualTo("_schemas");
      assertThat(t.numPartitions()).isEqualTo(1);
      assertThat(t.configs()).isEqualTo(Map.of("cleanup.policy", "compact"));
    });
  }
}
