package io.fleetscope.cli;

import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The endpoint flags of {@code run}: Kafka, the registry and the database as every FleetScope
 * command names them, and the Alertmanager, console port and Flink cluster of the pipeline. Each
 * overrides the {@link Endpoints} from the environment only when given.
 */
final class EndpointOptions {
  @Mixin KafkaOption kafka;
  @Mixin RegistryOption registry;
  @Mixin JdbcOptions jdbc;

  @Option(names = "--alertmanager", paramLabel = "URL",
      description = "Alertmanager the correlator delivers to (default: $FLEETSCOPE_ALERTMANAGER, else the local stack's)")
  String alertmanager;

  @Option(names = "--console-port", paramLabel = "PORT",
      description = "the console's port on 127.0.0.1 (default: $FLEETSCOPE_CONSOLE_PORT, else 18080)")
  Integer consolePort;

  @Option(names = "--flink", paramLabel = "URL",
      description = "REST API of the Flink session cluster (default: $FLEETSCOPE_FLINK, else the local stack's)")
  String flink;

  /** {@code base} with every endpoint given on the command line replaced. */
  Endpoints over(Endpoints base) {
    return new Endpoints(kafka.given().orElse(base.kafka()), registry.given().orElse(base.registry()),
        jdbc.givenUrl().orElse(base.jdbc()), alertmanager != null ? alertmanager : base.alertmanager(),
        consolePort != null ? consolePort : base.consolePort(), flink != null ? flink : base.flink(),
        kafka.givenConfigFile().orElse(base.kafkaConfig()));
  }

  /** The endpoints from {@code env}, then these flags. */
  Endpoints resolve(Map<String, String> env) {
    return over(Endpoints.fromEnvironment(env));
  }
}
