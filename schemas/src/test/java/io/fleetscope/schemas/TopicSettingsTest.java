package io.fleetscope.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicSettingsTest {

  @Test
  void inventoryJobsAndFabricConfigAreCompactedTheOthersKeepSevenDays() {
    for (Topics.TopicSpec t : Topics.all().values()) {
      assertThat(t.settings().partitions()).as(t.name()).isEqualTo(4);
      if (t.name().equals(Topics.INVENTORY) || t.name().equals(Topics.JOBS) || t.name().equals(Topics.FABRIC_CONFIG)) {
        assertThat(t.compacted()).as(t.name()).isTrue();
        assertThat(t.settings().configs()).as(t.name()).isEqualTo(Map.of("cleanup.policy", "compact"));
      } else {
        assertThat(t.compacted()).as(t.name()).isFalse();
        assertThat(t.settings().configs()).as(t.name()).isEqualTo(Map.of("retention.ms", "604800000"));
      }
    }
    assertThat(Topics.settings()).extracting(TopicSettings::name).containsExactlyElementsOf(Topics.all().keySet());
  }

  @Test
  void renamingOrResizingKeepsTheConfigs() {
    TopicSettings inv = Topics.require(Topics.INVENTORY).settings();
    TopicSettings renamed = inv.withName("it.inventory").withPartitions(1);
    assertThat(renamed).isEqualTo(new TopicSettings("it.inventory", 1, Map.of("cleanup.policy", "compact")));
    assertThat(renamed.compacted()).isTrue();
    assertThat(TopicSettings.retained("t", 2, Duration.ofHours(1)).configs()).containsEntry("retention.ms", "3600000");
  }

  @Test
  void aReplaySetKeepsItsRecordsWhateverTheirTimesAndCompactsWhatIsCompacted() {
    TopicSettings anomalies = Topics.require(Topics.ANOMALIES).settings().forReplay("bundle-7.");
    assertThat(anomalies).isEqualTo(new TopicSettings("bundle-7.fleet.anomalies.v1", 4, Map.of("retention.ms", "-1")));
    TopicSettings inv = Topics.require(Topics.INVENTORY).settings().forReplay("bundle-7.");
    assertThat(inv).isEqualTo(new TopicSettings("bundle-7.fleet.inventory.v1", 4, Map.of("cleanup.policy", "compact")));
  }

  @Test
  void refusesATopicWithoutPartitions() {
    assertThatThrownBy(() -> new TopicSettings("t", 0, Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("topic t: partitions must be at least 1, got 0");
  }
}
