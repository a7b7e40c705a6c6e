package io.fleetscope.sink.export;

import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where an export reads its records: {@code --source auto} (the default) reads each topic from Kafka
 * while the broker still retains the range's start and from TimescaleDB otherwise (or for every topic
 * when the broker does not answer within {@link #KAFKA_TIMEOUT}); {@code --source timescaledb} reads the
 * database only. {@code --prefix P} reads the topics {@code P<topic>} (a set written by
 * {@code replay --prefix P}); {@code --lateness} is how far records may be out of event-time order
 * (Kafka is read from the records sent that long before the range's start until a partition's samples
 * are that long past its end).
 */
public final class ExportSourceOptions {
  /** How long the broker may take to answer before an {@code auto} export reads the database only. */
  public static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(10);
  /** Default of {@code --lateness}: a node's backlog after an outage is up to 5 minutes behind. */
  public static final Duration DEFAULT_LATENESS = Duration.ofMinutes(5);

  /** The values of {@code --source}. */
  public enum Source {
    AUTO, TIMESCALEDB
  }

  @Option(names = "--source", paramLabel = "auto|timescaledb",
      description = "auto: each topic from Kafka while it retains the range, else from TimescaleDB; timescaledb: the database only"
          + " (default: auto)")
  String source = "auto";

  @Option(names = "--prefix", paramLabel = "P", description = "read the Kafka topics P<topic> (as replay --prefix P wrote them; default: none)")
  String prefix = "";

  @Option(names = "--lateness", paramLabel = "DURATION",
      description = "how far records may be out of event-time order: Kafka is read from the records sent that long before"
          + " the range's start until a partition's samples are that long past its end (default: 5m)")
  Duration lateness = DEFAULT_LATENESS;

  @Mixin KafkaOption kafka;

  @Mixin RegistryOption registry;

  Source source() {
    try {
      return Source.valueOf(source.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--source must be auto or timescaledb, got '" + source + "'");
    }
  }

  /**
   * The Kafka reader for an {@code auto} export, or null (database only) for {@code --source timescaledb}
   * or a broker that does not answer; says which on {@code log}.
   */
  KafkaExportSource open(Map<String, String> env, PrintStream log) {
    if (source() == Source.TIMESCALEDB) {
      log.println("export source=timescaledb reason=\"--source timescaledb\"");
      return null;
    }
    if (!prefix.isEmpty() && !prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("--prefix may hold letters, digits, '.', '_' and '-' only; got '" + prefix + "'");
    }
    String bootstrap = kafka.bootstrap(env);
    KafkaExportSource k = new KafkaExportSource(new KafkaExportSource.Settings(bootstrap, kafka.client(env), registry.url(env),
        prefix, lateness, KAFKA_TIMEOUT));
    try {
      k.reachable();
      return k;
    } catch (KafkaException e) {
      k.close();
      log.println("export source=timescaledb kafka=" + bootstrap + " reason=\"broker unreachable: " + e.getMessage() + "\"");
      return null;
    }
  }
}
