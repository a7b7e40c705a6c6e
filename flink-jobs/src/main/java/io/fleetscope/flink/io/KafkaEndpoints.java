package io.fleetscope.flink.io;

import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.io.Serializable;

/**
 * Kafka and schema registry endpoints of a live run.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param registryUrl schema registry base URL
 * @param groupId consumer group of the analytics (offsets committed on checkpoints)
 * @param fromEarliest start from the earliest offset when the group has no committed offset
 * @param client the Kafka clients' security settings (TLS, SASL) and the registry's credentials
 * @param topicPrefix read and write the topics {@code <prefix><topic>} (a set written by {@code replay --prefix});
 *     empty: the topics themselves
 */
public record KafkaEndpoints(String bootstrapServers, String registryUrl, String groupId, boolean fromEarliest,
    KafkaClientConfig client, String topicPrefix) implements Serializable {

  public KafkaEndpoints {
    topicPrefix = topicPrefix == null ? "" : topicPrefix;
  }

  /** Plaintext Kafka and an open registry. */
  public KafkaEndpoints(String bootstrapServers, String registryUrl, String groupId, boolean fromEarliest) {
    this(bootstrapServers, registryUrl, groupId, fromEarliest, KafkaClientConfig.none());
  }

  /** The topics themselves (no prefix). */
  public KafkaEndpoints(String bootstrapServers, String registryUrl, String groupId, boolean fromEarliest,
      KafkaClientConfig client) {
    this(bootstrapServers, registryUrl, groupId, fromEarliest, client, "");
  }

  /** The name on the broker of the topic named {@code topic} in {@link io.fleetscope.schemas.Topics}. */
  public String topic(String topic) {
    return topicPrefix + topic;
  }
}
