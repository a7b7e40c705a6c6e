package io.fleetscope.streams;

import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.TopicSettings;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Map;

/**
 * The correlator's input and output topics under the names it is configured with, each created as
 * {@link Topics} specifies its default topic. Kafka Streams refuses to start on a missing source
 * topic, so the correlator creates the missing ones first.
 */
final class CorrelatorTopics {
  private CorrelatorTopics() {}

  /** Anomalies, inventory and jobs (compacted), checkpoint events, alerts and dead letters, as {@code c} names them. */
  static List<TopicSettings> of(CorrelatorConfig c) {
    return List.of(
        Topics.require(Topics.ANOMALIES).settings().withName(c.anomaliesTopic()),
        Topics.require(Topics.INVENTORY).settings().withName(c.inventoryTopic()),
        Topics.require(Topics.JOBS).settings().withName(c.jobsTopic()),
        Topics.require(Topics.CKPT).settings().withName(c.ckptTopic()),
        Topics.require(Topics.ALERTS).settings().withName(c.alertsTopic()),
        Topics.require(Topics.DLQ).settings().withName(c.dlqTopic()));
  }

  /**
   * The correlator's topics as a replay set {@code prefix<topic>} (what {@code --topic-prefix} names):
   * created without time-based retention, as {@code replay --prefix} and the analytics create them,
   * since a replay's records keep their original times.
   */
  static List<TopicSettings> replaySet(String prefix) {
    return of(CorrelatorConfig.of(Map.of())).stream().map(t -> t.forReplay(prefix)).toList();
  }

  /** Creates those of the replay set {@code prefix<topic>} that are missing on {@code c.kafka()}. */
  static void ensureReplaySet(CorrelatorConfig c, String prefix) {
    TopicBootstrap.ensure(c.kafka(), c.kafkaClient(), replaySet(prefix));
  }

  /** Creates those of the correlator's topics that are missing on {@code c.kafka()}. */
  static void ensure(CorrelatorConfig c) {
    TopicBootstrap.ensure(c.kafka(), c.kafkaClient(), of(c));
  }
}
