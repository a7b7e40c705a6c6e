package io.fleetscope.flink.io;

import java.io.Serializable;

/**
 * Kafka and schema registry endpoints of a live run.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param registryUrl schema registry base URL
 * @param groupId consumer group of the analytics (offsets committed on checkpoints)
 * @param fromEarliest start from the earliest offset when the group has no committed offset
 */
public record KafkaEndpoints(String bootstrapServers, String registryUrl, String groupId, boolean fromEarliest)
    implements Serializable {}
