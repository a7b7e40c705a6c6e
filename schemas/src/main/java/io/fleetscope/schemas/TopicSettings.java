package io.fleetscope.schemas;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.TopicConfig;

/**
 * How a topic is created: its name, partition count and topic-level configs (cleanup policy,
 * retention). {@link TopicBootstrap} creates a topic from these when it is missing and never
 * changes a topic that exists.
 *
 * @param name the topic
 * @param partitions the partition count, at least 1
 * @param configs topic-level configs, e.g. {@code cleanup.policy=compact} or {@code retention.ms}
 */
public record TopicSettings(String name, int partitions, Map<String, String> configs) {

  public TopicSettings {
    Objects.requireNonNull(name, "name");
    if (partitions < 1) {
      throw new IllegalArgumentException("topic " + name + ": partitions must be at least 1, got " + partitions);
    }
    configs = Map.copyOf(configs);
  }

  /** A compacted topic ({@code cleanup.policy=compact}): the latest value per key is kept. */
  public static TopicSettings compacted(String name, int partitions) {
    return new TopicSettings(name, partitions,
        Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
  }

  /** A topic whose records are deleted after {@code retention} ({@code retention.ms}). */
  public static TopicSettings retained(String name, int partitions, Duration retention) {
    return new TopicSettings(name, partitions,
        Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.toMillis())));
  }

  /** Whether the topic keeps the latest value per key rather than a time window. */
  public boolean compacted() {
    return TopicConfig.CLEANUP_POLICY_COMPACT.equals(configs.get(TopicConfig.CLEANUP_POLICY_CONFIG));
  }

  /** The same settings under another name (a component configured to use its own topic). */
  public TopicSettings withName(String otherName) {
    return new TopicSettings(otherName, partitions, configs);
  }

  /**
   * The topic of a replay set: named {@code prefix + name}, compacted like this one, but with no
   * time-based retention ({@code retention.ms=-1}) where this one has one. A replay publishes records
   * with their original times, usually older than any retention, and the broker's retention check
   * (every 5 minutes by default) would delete them while the replay's consumers still read them; the
   * set is kept until it is deleted with its prefix.
   */
  public TopicSettings forReplay(String prefix) {
    if (compacted()) {
      return withName(prefix + name);
    }
    Map<String, String> kept = new HashMap<>(configs);
    kept.put(TopicConfig.RETENTION_MS_CONFIG, "-1");
    return new TopicSettings(prefix + name, partitions, kept);
  }

  /** The same settings with another partition count (a benchmark sizing the topics to its load). */
  public TopicSettings withPartitions(int otherPartitions) {
    return new TopicSettings(name, otherPartitions, configs);
  }
}
