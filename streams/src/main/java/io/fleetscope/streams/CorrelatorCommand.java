package io.fleetscope.streams;

import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The correlator's command line: a settings file ({@link CorrelatorConfig}, YAML) with
 * the flags given on top. Running it starts the correlator until SIGTERM/SIGINT.
 */
@Command(name = "correlator", sortOptions = false,
    description = "The alert correlator: anomalies -> lifecycle -> incidents -> fleet.alerts.v1 and Alertmanager."
        + " Flags override the settings file.")
final class CorrelatorCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--config", paramLabel = "FILE", description = "settings file (YAML: correlator: {key: value}; keys below)")
  Path config;

  @Mixin KafkaOption kafka;
  @Mixin RegistryOption registry;

  @Option(names = "--alertmanager", paramLabel = "URL", description = "Alertmanager base URL; empty: none (default: "
      + "the local stack's)")
  String alertmanager;

  @Option(names = "--webhook", paramLabel = "URL", description = "generic webhook receiver URL (default: none)")
  String webhook;

  @Option(names = "--http-port", paramLabel = "PORT", description = "port of the incidents API; 0: any free"
      + " port, -1: none (default: 18083)")
  Integer httpPort;

  @Option(names = "--http-address", paramLabel = "ADDRESS", description = "IP address of the incidents API (default:"
      + " 127.0.0.1, this machine only)")
  String httpAddress;

  @Option(names = "--state-dir", paramLabel = "DIR", description = "Kafka Streams state directory (default:"
      + " .fleetscope/streams)")
  Path stateDir;

  @Option(names = "--topic-prefix", paramLabel = "P",
      description = "read and write the topics P<topic> (a set written by replay --prefix P), as application P"
          + "fleetscope-correlator (default: the topics themselves)")
  String topicPrefix;

  /** Defaults, then the file, then the flags that were given. */
  CorrelatorConfig config() {
    Map<String, String> flags = new LinkedHashMap<>();
    if (topicPrefix != null && !topicPrefix.isEmpty()) {
      if (!topicPrefix.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException("--topic-prefix may hold letters, digits, '.', '_' and '-' only; got '" + topicPrefix + "'");
      }
      for (String k : List.of(CorrelatorConfig.TOPIC_ANOMALIES, CorrelatorConfig.TOPIC_INVENTORY, CorrelatorConfig.TOPIC_JOBS,
          CorrelatorConfig.TOPIC_CKPT, CorrelatorConfig.TOPIC_ALERTS, CorrelatorConfig.TOPIC_DLQ)) {
        flags.put(k, topicPrefix + CorrelatorConfig.defaults().get(k));
      }
      flags.put(CorrelatorConfig.APPLICATION_ID, topicPrefix + CorrelatorConfig.defaults().get(CorrelatorConfig.APPLICATION_ID));
    }
    kafka.given().ifPresent(v -> flags.put(CorrelatorConfig.KAFKA, v));
    kafka.givenConfigFile().ifPresent(v -> flags.put(CorrelatorConfig.KAFKA_CONFIG, v));
    registry.given().ifPresent(v -> flags.put(CorrelatorConfig.REGISTRY, v));
    if (alertmanager != null) {
      flags.put(CorrelatorConfig.ALERTMANAGER, alertmanager);
    }
    if (webhook != null) {
      flags.put(CorrelatorConfig.WEBHOOK, webhook);
    }
    if (httpPort != null) {
      flags.put(CorrelatorConfig.HTTP_PORT, httpPort.toString());
    }
    if (httpAddress != null) {
      flags.put(CorrelatorConfig.HTTP_ADDRESS, httpAddress);
    }
    if (stateDir != null) {
      flags.put(CorrelatorConfig.STATE_DIR, stateDir.toString());
    }
    return CorrelatorConfig.load(config, flags);
  }

  @Override
  public Integer call() throws Exception {
    CorrelatorConfig config = config();
    if (topicPrefix != null && !topicPrefix.isEmpty()) {
      CorrelatorTopics.ensureReplaySet(config, topicPrefix); // before start(), which creates what is still missing the usual way
    }
    CorrelatorApp.Running running = CorrelatorApp.start(config);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      running.close();
      done.countDown();
    }, "correlator-shutdown"));
    done.await();
    return 0;
  }
}
