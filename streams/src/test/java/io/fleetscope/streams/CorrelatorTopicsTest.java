package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.TopicSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CorrelatorTopicsTest {

  @Test
  void aTopicPrefixNamesEveryTopicAndTheApplication() {
    CorrelatorCommand cmd = new CorrelatorCommand();
    new picocli.CommandLine(cmd).parseArgs("--topic-prefix", "replay-1.");
    CorrelatorConfig c = cmd.config();
    assertThat(CorrelatorTopics.of(c)).extracting(TopicSettings::name).containsExactly("replay-1.fleet.anomalies.v1",
        "replay-1.fleet.inventory.v1", "replay-1.fleet.jobs.v1", "replay-1.fleet.ckpt.v1", "replay-1.fleet.alerts.v1",
        "replay-1.fleet.dlq.v1");
    assertThat(c.applicationId()).isEqualTo("replay-1.fleetscope-correlator");
    // the replay set is created before the correlator starts: its names, without time-based retention
    assertThat(CorrelatorTopics.replaySet("replay-1.")).extracting(TopicSettings::name)
        .containsExactlyElementsOf(CorrelatorTopics.of(c).stream().map(TopicSettings::name).toList());
    assertThat(CorrelatorTopics.replaySet("replay-1.")).first()
        .isEqualTo(new TopicSettings("replay-1.fleet.anomalies.v1", 4, Map.of("retention.ms", "-1")));
    assertThat(CorrelatorTopics.replaySet("replay-1.")).element(1)
        .isEqualTo(new TopicSettings("replay-1.fleet.inventory.v1", 4, Map.of("cleanup.policy", "compact")));
  }

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
