package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.streams.jobs.LastCheckpointProcessor;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerde;
import io.fleetscope.serde.RegistryWait;
import io.fleetscope.serde.SchemaRegistryClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The alert correlator: fleet.anomalies.v1 (+ fleet.inventory.v1 and fleet.jobs.v1 as GlobalKTables, the last
 * completed checkpoint of each job from fleet.ckpt.v1 as a global store) ->
 * lifecycle (hold-down) -> topology grouping -> fleet.alerts.v1 and delivery to Alertmanager / a
 * webhook, with the incidents served over HTTP from the state store.
 *
 * <pre>
 * anomalies (bytes) -> decode/validate --invalid--> fleet.dlq.v1   (registry down: waited out, not rejected)
 *        |valid, keyed by fingerprint
 *        v
 *   lifecycle [alert-lifecycle]  (min firing duration, flap hold-down; wall-clock punctuator)
 *        | effective changes, re-keyed by cluster -> repartition "by-cluster"
 *        v
 *   incidents [alert-members, incidents] + GlobalKTable inventory, GlobalKTable jobs, global store job-last-checkpoint
 *        |   (each incident gets the jobs its blast radius touches: GPUs, size, checkpoint age, GPU-hours at risk)
 *        |-> fleet.alerts.v1
 *        `-> deliver [deliveries] -> Alertmanager POST /api/v2/alerts | webhook
 * </pre>
 *
 * A record that makes any processor throw goes to fleet.dlq.v1 too ({@link DeadLetterOnProcessingError}).
 */
public final class CorrelatorApp {
  public static final String INVENTORY_STORE = "inventory";
  private static final Logger log = LoggerFactory.getLogger(CorrelatorApp.class);

  private CorrelatorApp() {}

  /** The topology with the registry and sinks named in {@code config}. */
  public static Topology buildTopology(CorrelatorConfig config) {
    return buildTopology(config, config.kafkaClient().registryClient(config.registry()), sinkFor(config));
  }

  public static Topology buildTopology(CorrelatorConfig config, SchemaRegistryClient registry, AlertSink sink) {
    return buildTopology(config, registry, sink, new RegistryWait(config.registryBackoff()));
  }

  /**
   * The topology; every record read waits out a registry that cannot answer with {@code registryWait}
   * (cancel it to end such waits when closing).
   */
  public static Topology buildTopology(CorrelatorConfig config, SchemaRegistryClient registry, AlertSink sink,
      RegistryWait registryWait) {
    return buildTopology(config, registry, sink, registryWait, new CorrelatorMetrics());
  }

  /** As above, counting deliveries in {@code metrics}. */
  public static Topology buildTopology(CorrelatorConfig config, SchemaRegistryClient registry, AlertSink sink,
      RegistryWait registryWait, CorrelatorMetrics metrics) {
    Serde<String> keys = Serdes.String();
    AvroSerde<Anomaly> anomalySerde = new AvroSerde<>(registry, Anomaly.class, registryWait);
    AvroSerde<Alert> alertSerde = new AvroSerde<>(registry, Alert.class, registryWait);
    AvroSerde<InventoryRecord> inventorySerde = new AvroSerde<>(registry, InventoryRecord.class, registryWait);
    AvroSerde<JobAllocations> jobsSerde = new AvroSerde<>(registry, JobAllocations.class, registryWait);
    AvroSerde<DeadLetter> dlqSerde = new AvroSerde<>(registry, DeadLetter.class, registryWait);
    AvroDeserializer<Anomaly> anomalyReader = new AvroDeserializer<>(registry, Anomaly.class, registryWait);

    StreamsBuilder b = new StreamsBuilder();
    b.globalTable(config.inventoryTopic(), Consumed.with(keys, inventorySerde).withName("inventory-source"),
        Materialized.<String, InventoryRecord, KeyValueStore<Bytes, byte[]>>as(INVENTORY_STORE)
            .withKeySerde(keys).withValueSerde(inventorySerde));
    // the jobs an incident touches: allocations per node, and the last completed checkpoint per job (in memory:
    // rebuilt from fleet.ckpt.v1 through the same processor at start, so it holds what the topic still retains)
    b.globalTable(config.jobsTopic(), Consumed.with(keys, jobsSerde).withName("jobs-source"),
        Materialized.<String, JobAllocations, KeyValueStore<Bytes, byte[]>>as(IncidentProcessor.JOBS)
            .withKeySerde(keys).withValueSerde(jobsSerde));
    b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(LastCheckpointProcessor.STORE), keys,
            Serdes.Long()).withLoggingDisabled(),
        config.ckptTopic(), Consumed.with(keys, new AvroSerde<>(registry, CheckpointEvent.class, registryWait))
            .withName("ckpt-source"),
        LastCheckpointProcessor::new);
    b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(LifecycleProcessor.STORE),
        keys, new JsonSerde<>(AlertState.class)));
    b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(IncidentProcessor.MEMBERS),
        keys, anomalySerde));
    b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(IncidentProcessor.INCIDENTS),
        keys, alertSerde));
    b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DeliveryProcessor.STORE),
        keys, new JsonSerde<>(DeliveryState.class)));

    KStream<String, AnomalyDecoder.Decoded> decoded = b
        .stream(config.anomaliesTopic(), Consumed.with(keys, Serdes.ByteArray()).withName("anomalies-source"))
        .processValues(() -> new AnomalyDecoder(anomalyReader), Named.as("decode"));
    Map<String, KStream<String, AnomalyDecoder.Decoded>> branches = decoded.split(Named.as("decoded-"))
        .branch((k, v) -> v.ok(), Branched.as("ok"))
        .defaultBranch(Branched.as("rejected"));
    branches.get("decoded-rejected")
        .mapValues(AnomalyDecoder.Decoded::deadLetter, Named.as("dead-letter"))
        .to(config.dlqTopic(), Produced.with(keys, dlqSerde).withName("dlq-sink"));

    AlertLifecycle lifecycle = new AlertLifecycle(config.minFiring(), config.flapHold(), config.replayHorizon());
    IncidentGrouper grouper = new IncidentGrouper(config);
    KStream<String, Alert> alerts = branches.get("decoded-ok")
        .mapValues(AnomalyDecoder.Decoded::anomaly, Named.as("anomaly"))
        .process(() -> new LifecycleProcessor(lifecycle, config.tick()), Named.as("lifecycle"), LifecycleProcessor.STORE)
        .repartition(Repartitioned.with(keys, anomalySerde).withName("by-cluster"))
        .process(() -> new IncidentProcessor(grouper, INVENTORY_STORE, config.resolvedRetention(),
            config.inventoryCache()), Named.as("group"),
            IncidentProcessor.MEMBERS, IncidentProcessor.INCIDENTS);
    alerts.to(config.alertsTopic(), Produced.with(keys, alertSerde).withName("alerts-sink"));
    alerts.process(() -> new DeliveryProcessor(sink, config, metrics), Named.as("deliver"), DeliveryProcessor.STORE);
    return b.build();
  }

  /** Alertmanager and/or the webhook receiver named in the config. */
  public static AlertSink sinkFor(CorrelatorConfig config) {
    List<AlertSink> sinks = new ArrayList<>();
    if (!config.alertmanager().isBlank()) {
      sinks.add(HttpAlertSink.alertmanager(config.alertmanager(), config.deliveryTimeout()));
    }
    if (!config.webhookUrl().isBlank()) {
      sinks.add(HttpAlertSink.webhook(config.webhookUrl(), config.webhookReceiver(), config.generatorBase(),
          config.deliveryTimeout()));
    }
    if (sinks.isEmpty()) {
      throw new IllegalArgumentException("no delivery target: set " + CorrelatorConfig.ALERTMANAGER + " and/or "
          + CorrelatorConfig.WEBHOOK);
    }
    return AlertSink.all(sinks);
  }

  public static Properties streamsConfig(CorrelatorConfig config) {
    Properties p = config.kafkaClient().applyTo(new Properties());
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka());
    p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE); // deliveries are idempotent per label set
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
    p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
    // inventory records that cannot be decoded (anomalies are decoded by the topology -> DLQ) go to the DLQ
    // with the reason, through the same producer (start() adds it)
    p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterOnDeserializationError.class);
    // a record that makes a processor throw (a bug, not bad input) goes to the DLQ with the reason and is
    // counted, instead of killing the stream thread over and over on the same record (start() adds the producer)
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterOnProcessingError.class);
    return p;
  }

  /** A running correlator: the Kafka Streams instance, its sink and the HTTP API. */
  public static final class Running implements AutoCloseable {
    private final KafkaStreams streams;
    private final AlertSink sink;
    private final IncidentHttpServer http;
    private final RegistryWait registryWait;
    private final DeadLetterProducer deadLetters;
    private final CorrelatorMetrics metrics;

    Running(KafkaStreams streams, AlertSink sink, IncidentHttpServer http, RegistryWait registryWait,
        DeadLetterProducer deadLetters, CorrelatorMetrics metrics) {
      this.metrics = metrics;
      this.streams = streams;
      this.sink = sink;
      this.http = http;
      this.registryWait = registryWait;
      this.deadLetters = deadLetters;
    }

    /** Records that made a processor throw and were sent to the DLQ since start. */
    public long processingFailures() {
      return deadLetters.sent();
    }

    public KafkaStreams streams() {
      return streams;
    }

    /** Its Prometheus metrics (also served at {@code /metrics} on the HTTP port). */
    public CorrelatorMetrics metrics() {
      return metrics;
    }

    /** Port of the incidents API, or -1 when it is off. */
    public int httpPort() {
      return http == null ? -1 : http.port();
    }

    public ReadOnlyKeyValueStore<String, Alert> incidents() {
      return streams.store(StoreQueryParameters.fromNameAndType(IncidentProcessor.INCIDENTS,
          QueryableStoreTypes.<String, Alert>keyValueStore()));
    }

    @Override
    public void close() {
      if (http != null) {
        http.close();
      }
      registryWait.cancel(); // a thread waiting for the registry stops waiting; its record is read again next start
      streams.close();
      deadLetters.close();
      sink.close();
      log.info("correlator stopped");
    }
  }

  /** Starts the correlator with {@code registry} and {@code sink} (tests pass their own registry client). */
  public static Running start(CorrelatorConfig config, SchemaRegistryClient registry, AlertSink sink) throws java.io.IOException {
    CorrelatorTopics.ensure(config);
    RegistryWait registryWait = new RegistryWait(config.registryBackoff());
    Properties props = streamsConfig(config);
    DeadLetterProducer deadLetters = DeadLetterProducer.create(toMap(props), registry, config.dlqTopic());
    props.put(DeadLetterOnProcessingError.PRODUCER, deadLetters);
    CorrelatorMetrics metrics = new CorrelatorMetrics();
    KafkaStreams streams = new KafkaStreams(buildTopology(config, registry, sink, registryWait, metrics), props);
    metrics.kafka().add(streams::metrics);
    metrics.processingFailuresFrom(deadLetters::sent);
    metrics.incidentsFrom(() -> streams.store(StoreQueryParameters.fromNameAndType(IncidentProcessor.INCIDENTS,
        QueryableStoreTypes.<String, Alert>keyValueStore())));
    streams.setUncaughtExceptionHandler(e -> {
      log.error("stream thread failed, replacing it reason=\"{}\"", e.toString());
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.start();
    IncidentHttpServer http = null;
    if (config.httpPort() >= 0) {
      http = new IncidentHttpServer(config.httpAddress(), config.httpPort(), () -> streams.store(StoreQueryParameters.fromNameAndType(
          IncidentProcessor.INCIDENTS, QueryableStoreTypes.<String, Alert>keyValueStore())),
          IncidentHttpServer.DEFAULT_MAX_BODY_BYTES, metrics.registry()).start();
    }
    log.info("correlator started kafka={} kafka_client=\"{}\" registry={} sink={} application_id={}", config.kafka(),
        config.kafkaClient().describe(), io.fleetscope.serde.RegistryUrl.parse(config.registry()), sink.describe(),
        config.applicationId());
    return new Running(streams, sink, http, registryWait, deadLetters, metrics);
  }

  private static Map<String, Object> toMap(Properties p) {
    Map<String, Object> m = new java.util.HashMap<>();
    p.forEach((k, v) -> m.put(k.toString(), v));
    return m;
  }

  public static Running start(CorrelatorConfig config) throws java.io.IOException {
    return start(config, config.kafkaClient().registryClient(config.registry()), sinkFor(config));
  }

  /** The settings a command line describes ({@link CorrelatorCommand}); mistakes throw IllegalArgumentException. */
  static CorrelatorConfig parseArgs(String[] args) {
    CorrelatorCommand c = new CorrelatorCommand();
    try {
      commandLine(c).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return c.config();
  }

  /** The correlator's command line, with every setting of the file in its help. */
  static CommandLine commandLine(CorrelatorCommand command) {
    CommandLine cl = CommandLines.create(command);
    cl.getCommandSpec().usageMessage().footer("%nSettings (YAML file: section correlator, then the key after the dot):%n"
        + CorrelatorConfig.describe().replace("%", "%%").replace("\n", "%n"));
    return cl;
  }

  public static void main(String[] args) {
    int rc = commandLine(new CorrelatorCommand()).execute(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }
}
