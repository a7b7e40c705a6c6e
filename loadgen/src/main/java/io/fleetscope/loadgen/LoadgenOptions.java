package io.fleetscope.loadgen;

import java.nio.file.Path;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * The validated options of {@code loadgen} ({@link LoadgenCommand} declares the flags and their
 * defaults). {@code kafka} is null when the records go to the file {@code out}.
 */
public record LoadgenOptions(int nodes, int gpusPerNode, Duration interval, String scenario, Duration duration,
    long seed, Instant start, String cluster, boolean paced, boolean disorder, String kafka, String registry, Path out,
    Path labels, boolean listScenarios, KafkaClientConfig kafkaClient) {

  /** Plaintext Kafka and an open registry. */
  public LoadgenOptions(int nodes, int gpusPerNode, Duration interval, String scenario, Duration duration, long seed,
      Instant start, String cluster, boolean paced, boolean disorder, String kafka, String registry, Path out, Path labels,
      boolean listScenarios) {
    this(nodes, gpusPerNode, interval, scenario, duration, seed, start, cluster, paced, disorder, kafka, registry, out,
        labels, listScenarios, KafkaClientConfig.none());
  }

  /** Parses a {@code loadgen} command line; a mistake throws IllegalArgumentException naming it. */
  public static LoadgenOptions parse(String[] args) {
    return LoadgenCommand.parse(args, System.getenv(), Instant.now());
  }
}
