package io.fleetscope.schemas.cli;

import java.util.Map;
import java.util.Optional;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import picocli.CommandLine.Option;

/**
 * {@code --kafka [HOST:PORT] [--kafka-config FILE]}: the Kafka bootstrap servers, for every command
 * that reads or writes topics, and the client's security settings. Without the flag, or with the
 * flag and no value, the servers are {@code $FLEETSCOPE_KAFKA} or the local stack's broker; the
 * settings are the Kafka client properties file {@code --kafka-config} or
 * {@code $FLEETSCOPE_KAFKA_CONFIG} names (TLS, SASL and the registry's credentials, see
 * {@link KafkaClientConfig}), else none. Add it to a command with {@code @Mixin}.
 */
public final class KafkaOption {
  /** The environment variable that overrides the local default. */
  public static final String ENV = "FLEETSCOPE_KAFKA";

  @Option(names = "--kafka", arity = "0..1", paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers (default: $" + ENV + ", else the local stack's " + LocalEndpoints.KAFKA + ")")
  String value;

  @Option(names = "--kafka-config", paramLabel = "FILE",
      description = "Kafka client properties: security.protocol, ssl.*, sasl.* and the registry's basic.auth.user.info"
          + " (default: $" + KafkaClientConfig.ENV + ", else none: plaintext)")
  String configFile;

  /** The value given on the command line, if any. */
  public Optional<String> given() {
    return Endpoint.given(value);
  }

  /** The flag's value, else {@code $FLEETSCOPE_KAFKA}, else the local stack's broker. */
  public String bootstrap() {
    return bootstrap(System.getenv());
  }

  /** As {@link #bootstrap()} with {@code env} as the environment. */
  public String bootstrap(Map<String, String> env) {
    return Endpoint.resolve(value, env, ENV, LocalEndpoints.KAFKA);
  }

  /** The {@code --kafka-config} file given on the command line, if any. */
  public Optional<String> givenConfigFile() {
    return Endpoint.given(configFile);
  }

  /** The client security settings: {@code --kafka-config}, else {@code $FLEETSCOPE_KAFKA_CONFIG}, else none. */
  public KafkaClientConfig client() {
    return client(System.getenv());
  }

  /** As {@link #client()} with {@code env} as the environment. */
  public KafkaClientConfig client(Map<String, String> env) {
    return KafkaClientConfig.resolve(configFile, env);
  }
}
