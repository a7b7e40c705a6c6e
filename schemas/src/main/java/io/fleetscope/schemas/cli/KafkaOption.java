package io.fleetscope.schemas.cli;

import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --kafka [HOST:PORT]}: the Kafka bootstrap servers, for every command that reads or writes
 * topics. Without the flag, or with the flag and no value, it is {@code $FLEETSCOPE_KAFKA} or the
 * local stack's broker. Add it to a command with {@code @Mixin}.
 */
public final class KafkaOption {
  /** The environment variable that overrides the local default. */
  public static final String ENV = "FLEETSCOPE_KAFKA";

  @Option(names = "--kafka", arity = "0..1", paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers (default: $" + ENV + ", else the local stack's " + LocalEndpoints.KAFKA + ")")
  String value;

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
}
