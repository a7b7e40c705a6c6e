package io.fleetscope.cli;

import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import java.util.Map;
import picocli.CommandLine.Mixin;

/** {@code --kafka} and {@code --registry} for the tools that only talk to Kafka: tail, publish, replay. */
final class KafkaEndpointOptions {
  @Mixin KafkaOption kafka;
  @Mixin RegistryOption registry;

  /** The endpoints from {@code env}, then these flags. */
  Endpoints resolve(Map<String, String> env) {
    Endpoints base = Endpoints.fromEnvironment(env);
    return new Endpoints(kafka.given().orElse(base.kafka()), registry.given().orElse(base.registry()), base.jdbc(),
        base.alertmanager(), base.consolePort(), base.flink(), kafka.givenConfigFile().orElse(base.kafkaConfig()));
  }
}
