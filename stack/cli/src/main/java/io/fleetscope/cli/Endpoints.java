package io.fleetscope.cli;

import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.LocalEndpoints;
import io.fleetscope.schemas.cli.RegistryOption;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where the pipeline's services are. Defaults are the local stack's (ARCHITECTURE.md); each can be
 * overridden by an environment variable or a command-line flag of the same meaning
 * ({@link EndpointOptions}).
 *
 * @param kafka bootstrap servers; env FLEETSCOPE_KAFKA, flag --kafka; default 127.0.0.1:19092
 * @param registry schema registry URL; env FLEETSCOPE_REGISTRY, flag --registry; default http://127.0.0.1:18081
 * @param jdbc PostgreSQL URL; env FLEETSCOPE_JDBC_URL, flag --jdbc; default jdbc:postgresql://127.0.0.1:15432/fleetscope
 * @param alertmanager Alertmanager URL; env FLEETSCOPE_ALERTMANAGER, flag --alertmanager; default http://127.0.0.1:19093
 * @param consolePort console HTTP port on 127.0.0.1; env FLEETSCOPE_CONSOLE_PORT, flag --console-port; default 18080
 * @param flink Flink REST API of the session cluster the analytics run on; env FLEETSCOPE_FLINK, flag --flink;
 *     default http://127.0.0.1:18082
 * @param kafkaConfig the Kafka client properties file (TLS, SASL, the registry's credentials);
 *     env FLEETSCOPE_KAFKA_CONFIG, flag --kafka-config; default none (empty)
 */
public record Endpoints(String kafka, String registry, String jdbc, String alertmanager, int consolePort, String flink,
    String kafkaConfig) {

  /** Without Kafka client security settings. */
  public Endpoints(String kafka, String registry, String jdbc, String alertmanager, int consolePort, String flink) {
    this(kafka, registry, jdbc, alertmanager, consolePort, flink, "");
  }

  public static Endpoints fromEnvironment(Map<String, String> env) {
    return new Endpoints(
        env.getOrDefault(KafkaOption.ENV, LocalEndpoints.KAFKA),
        env.getOrDefault(RegistryOption.ENV, LocalEndpoints.REGISTRY),
        env.getOrDefault(JdbcOptions.URL_ENV, LocalEndpoints.JDBC_URL),
        env.getOrDefault("FLEETSCOPE_ALERTMANAGER", LocalEndpoints.ALERTMANAGER),
        Integer.parseInt(env.getOrDefault("FLEETSCOPE_CONSOLE_PORT", Integer.toString(LocalEndpoints.CONSOLE_PORT))),
        env.getOrDefault("FLEETSCOPE_FLINK", LocalEndpoints.FLINK),
        env.getOrDefault(KafkaClientConfig.ENV, ""));
  }

  /** The Kafka client security settings of {@link #kafkaConfig} (none when it is empty). */
  public KafkaClientConfig kafkaClient() {
    return KafkaClientConfig.resolve(kafkaConfig, Map.of());
  }

  /** {@code --kafka HOST:PORT}, and {@code --kafka-config FILE} when there is one: for a child process's command line. */
  public List<String> kafkaArgs() {
    List<String> args = new ArrayList<>(List.of("--kafka", kafka));
    if (kafkaConfig != null && !kafkaConfig.isBlank()) {
      args.addAll(List.of("--kafka-config", kafkaConfig));
    }
    return args;
  }

  public String consoleUrl() {
    return "http://127.0.0.1:" + consolePort;
  }
}
