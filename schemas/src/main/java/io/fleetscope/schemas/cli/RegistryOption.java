package io.fleetscope.schemas.cli;

import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --registry [URL]}: the schema registry that every Avro record on Kafka is encoded against.
 * Without the flag, or with the flag and no value, it is {@code $FLEETSCOPE_REGISTRY} or the local
 * stack's registry. Add it to a command with {@code @Mixin}.
 */
public final class RegistryOption {
  /** The environment variable that overrides the local default. */
  public static final String ENV = "FLEETSCOPE_REGISTRY";

  @Option(names = "--registry", arity = "0..1", paramLabel = "URL",
      description = "schema registry URL (default: $" + ENV + ", else the local stack's " + LocalEndpoints.REGISTRY + ")")
  String value;

  /** The value given on the command line, if any. */
  public Optional<String> given() {
    return Endpoint.given(value);
  }

  /** The flag's value, else {@code $FLEETSCOPE_REGISTRY}, else the local stack's registry. */
  public String url() {
    return url(System.getenv());
  }

  /** As {@link #url()} with {@code env} as the environment. */
  public String url(Map<String, String> env) {
    return Endpoint.resolve(value, env, ENV, LocalEndpoints.REGISTRY);
  }
}
