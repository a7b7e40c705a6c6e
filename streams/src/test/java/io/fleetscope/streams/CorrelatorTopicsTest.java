package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.TopicSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CorrelatorTopicsTest {

  @Test
  void theSixTopicsUnderTheirConfiguredNamesWithTheCatalogueSettings() {
    CorrelatorConfig c = CorrelatorConfig.of(Map.of(CorrelatorConfig.TOPIC_ANOMALIES, "it.anomalies",
        CorrelatorConfig.TOPIC_INVENTORY, "it.inventory"));
    assertThat(CorrelatorTopics.of(c)).containsExactly(
        new TopicSettings("it.anomalies", 4, Map.of("retention.ms", "604800000")),
        new TopicSettings("it.inventory", 4, Map.of("cleanup.policy", "compact")),
        new TopicSettings("fleet.jobs.v1", 4, Map.of("cleanup.policy", "compact")),
        new TopicSettings("fleet.ckpt.v1", 4, Map.of("retention.ms", "604800000")),
        new TopicSettings("fleet.alerts.v1", 4, Map.of("retention.ms", "604800000")),
        new TopicSettings("fleet.dlq.v1", 4, Map.of("retention.ms", "604800000")));
  }
}
