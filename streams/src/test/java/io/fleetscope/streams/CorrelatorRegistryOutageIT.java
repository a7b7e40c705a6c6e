package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestServices;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The correlator on the real broker and its own registry: a registry that is down while anomalies
 * arrive is waited out (zero dead letters, every anomaly correlated once it is back); a schema id the
 * registry does not know, an oversized invalid record and a record that makes a processor throw all
 * land in the DLQ with their reason.
 */
class CorrelatorRegistryOutageIT {
  private static final String RUN = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
  private static final String SCHEMAS_TOPIC = "_schemas_it_regdlq_" + RUN;
  private static LocalKafka kafka;
  private static SchemaRegistryServer registry;
  private static int registryPort;
  private static final List<AutoCloseable> closeMe = new ArrayList<>();

  @BeforeAll
  static void start() {
    kafka = TestServices.kafka();
    registry = SchemaRegistryServer.start(kafka.bootstrapServers(), 0, SCHEMAS_TOPIC);
    registryPort = registry.port();
  }

  @AfterAll
  static void stop() throws Exception {
    for (int i = closeMe.size() - 1; i >= 0; i--) {
      closeMe.get(i).close();
    }
    registry.close();
  }

  private static CorrelatorConfig config(String prefix) throws Exception {
    Map<String, String> o = new HashMap<>();
    o.put(CorrelatorConfig.APPLICATION_ID, prefix + "app");
    o.put(CorrelatorConfig.KAFKA, kafka.bootstrapServers());
    o.put(CorrelatorConfig.REGISTRY, "http://127.0.0.1:" + registryPort);
    o.put(CorrelatorConfig.HTTP_PORT, "-1");
    o.put(CorrelatorConfig.STATE_DIR, Files.createTempDirectory("correlator-regdlq").toString());
    o.put(CorrelatorConfig.TOPIC_ANOMALIES, prefix + "anomalies");
    o.put(CorrelatorConfig.TOPIC_INVENTORY, prefix + "inventory");
    o.put(CorrelatorConfig.TOPIC_ALERTS, prefix + "alerts");
    o.put(CorrelatorConfig.TOPIC_DLQ, prefix + "dlq");
    o.put(CorrelatorConfig.MIN_FIRING, "0");
    o.put(CorrelatorConfig.FLAP_HOLD, "0");
    o.put(CorrelatorConfig.TICK, "100");
    o.put(CorrelatorConfig.REGISTRY_WAIT_MAX, "1000");
    CorrelatorConfig c = CorrelatorConfig.of(o);
    kafka.createTopic(c.anomaliesTopic(), 3);
    kafka.createCompactedTopic(c.inventoryTopic(), 1);
    kafka.createTopic(c.alertsTopic(), 3);
    kafka.createTopic(c.dlqTopic(), 1);
    return c;
  }

  private static <V> KafkaProducer<String, V> producer(org.apache.kafka.common.serialization.Serializer<V> values) {
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    KafkaProducer<String, V> p = new KafkaProducer<>(pp, new StringSerializer(), values);
    closeMe.add(p);
    return p;
  }

  private static CorrelatorApp.Running correlator(CorrelatorConfig c) throws Exception {
    CorrelatorApp.Running r = CorrelatorApp.start(c, new RestSchemaRegistryClient(c.registry()), new RecordingSink());
    closeMe.add(r);
    return r;
  }

  private static int members(CorrelatorApp.Running r) {
    try {
      ReadOnlyKeyValueStore<String, Anomaly> s = r.streams().store(StoreQueryParameters.fromNameAndType(
          IncidentProcessor.MEMBERS, QueryableStoreTypes.<String, Anomaly>keyValueStore()));
      int n = 0;
      try (KeyValueIterator<String, Anomaly> it = s.all()) {
        while (it.hasNext()) {
          it.next();
          n++;
        }
      }
      return n;
    } catch (RuntimeException e) {
      return -1; // not queryable yet (rebalancing)
    }
  }

  /** Every record of {@code topic} until none has come for {@code quiet}. */
  private static List<ConsumerRecord<String, DeadLetter>> deadLetters(String topic, Duration quiet) {
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "it-regdlq-reader-" + System.nanoTime());
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    cp.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 << 20);
    List<ConsumerRecord<String, DeadLetter>> out = new ArrayList<>();
    try (KafkaConsumer<String, DeadLetter> c = new KafkaConsumer<>(cp, new StringDeserializer(),
        new AvroDeserializer<>(new RestSchemaRegistryClient("http://127.0.0.1:" + registryPort), DeadLetter.class))) {
      c.subscribe(List.of(topic));
      long quietUntil = System.nanoTime() + quiet.toNanos();
      while (System.nanoTime() < quietUntil) {
        var polled = c.poll(Duration.ofMillis(200));
        if (!polled.isEmpty()) {
          polled.forEach(out::add);
          quietUntil = System.nanoTime() + quiet.toNanos();
        }
      }
    }
    return out;
  }

  private static void await(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aRegistryDownWhileAnomaliesArriveIsWaitedOutAndEveryAnomalyIsCorrelatedAfterwards() throws Exception {
    CorrelatorConfig c = config("it-regdlq-outage-" + RUN + "-");
    AvroSerializer<SpecificRecord> serializer = new AvroSerializer<>(new RestSchemaRegistryClient(c.registry()));
    KafkaProducer<String, SpecificRecord> producer = producer(serializer);
    Instant t0 = Instant.now().minusSeconds(30);
    List<Anomaly> anomalies = new ArrayList<>();
    for (int n = 1; n <= 5; n++) {
      for (int g = 0; g < 8; g++) {
        anomalies.add(Fleet.gpuHot(t0, Fleet.node(9, n), g));
      }
    }
    serializer.serialize(c.anomaliesTopic(), anomalies.get(0)); // the producer knows its schema id already

    registry.stop();
    CorrelatorApp.Running correlator;
    try {
      correlator = correlator(c); // a fresh correlator: it must ask the registry for the id
      await("the correlator runs", Duration.ofSeconds(60),
          () -> correlator.streams().state() == KafkaStreams.State.RUNNING);
      for (Anomaly a : anomalies) {
        producer.send(new ProducerRecord<>(c.anomaliesTopic(), a.getFingerprint(), a));
      }
      producer.flush();
      Thread.sleep(6_000); // the registry stays down while the records wait
      assertThat(correlator.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
      assertThat(members(correlator)).as("nothing correlated while the registry is down").isLessThanOrEqualTo(0);
    } finally {
      registry = SchemaRegistryServer.start(kafka.bootstrapServers(), registryPort, SCHEMAS_TOPIC);
    }
    await("all 40 anomalies are correlated", Duration.ofSeconds(60), () -> members(correlator) == anomalies.size());
    assertThat(deadLetters(c.dlqTopic(), Duration.ofSeconds(3))).as("dead letters").isEmpty();
    assertThat(correlator.processingFailures()).isZero();
  }

  @Test
  void anUnknownSchemaIdAndAnOversizedInvalidAnomalyAreDeadLetteredWithTheirReason() throws Exception {
    CorrelatorConfig c = config("it-regdlq-bad-" + RUN + "-");
    CorrelatorApp.Running correlator = correlator(c);
    KafkaProducer<String, byte[]> raw = producer(new ByteArraySerializer());
    KafkaProducer<String, SpecificRecord> producer = producer(new AvroSerializer<>(new RestSchemaRegistryClient(c.registry())));

    byte[] unknownId = ByteBuffer.allocate(8).put((byte) 0).putInt(987_654).put(new byte[] {2, 4, 6}).array();
    raw.send(new ProducerRecord<>(c.anomaliesTopic(), "unknown-id", unknownId));
    // no cluster label (invalid), 700 KB of annotation: bytes and JSON together exceed Kafka's 1 MB request size
    Map<String, String> labels = new HashMap<>(Fleet.labels("alertname", "GpuXid", "severity", "warning", "node", "n1"));
    labels.remove("cluster");
    Anomaly huge = Anomaly.newBuilder(Fleet.firing(Instant.now(), Fleet.labels("alertname", "GpuXid")))
        .setLabels(labels).setAnnotations(Map.of("description", "x".repeat(700_000))).build();
    producer.send(new ProducerRecord<>(c.anomaliesTopic(), "huge", huge));
    Anomaly ok = Fleet.gpuHot(Instant.now().minusSeconds(10), Fleet.node(9, 9), 1);
    producer.send(new ProducerRecord<>(c.anomaliesTopic(), ok.getFingerprint(), ok));
    producer.flush();
    raw.flush();

    await("the valid anomaly after them is correlated", Duration.ofSeconds(60), () -> members(correlator) == 1);
    Map<String, DeadLetter> byKey = new HashMap<>();
    List<ConsumerRecord<String, DeadLetter>> dlq = deadLetters(c.dlqTopic(), Duration.ofSeconds(3));
    dlq.forEach(r -> byKey.put(r.key(), r.value()));
    assertThat(byKey).containsOnlyKeys("unknown-id", "huge");

    DeadLetter unknown = byKey.get("unknown-id");
    assertThat(unknown.getReason()).contains("unknown schema id 987654 (not in the registry: http=404 error_code=40403)");
    assertThat(unknown.getPayload()).isEqualTo(ByteBuffer.wrap(unknownId));

    DeadLetter big = byKey.get("huge");
    assertThat(big.getReason()).startsWith("invalid anomaly: missing label cluster" + DeadLetterFit.TRUNCATED_MARK + "1048576 bytes: payload ");
    // what was kept, and of how much, is in the reason; together it fits one request
    int keptBytes = big.getPayload().remaining();
    int keptChars = big.getPayloadJson().length();
    assertThat(big.getReason()).contains("payload " + keptBytes + " of ").contains("payload_json " + keptChars + " of ");
    assertThat(keptBytes + keptChars).isGreaterThan(500_000).isLessThan(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    assertThat(keptChars).isLessThan(700_000);
    assertThat(big.getPayloadJson()).startsWith("{");
    assertThat(big.getSourceTopic()).isEqualTo(c.anomaliesTopic());
    assertThat(big.getOffset()).isNotNull();
  }

  /** Throws for key "boom", passes every other record on. */
  static final class Explode implements FixedKeyProcessor<String, byte[], byte[]> {
    private FixedKeyProcessorContext<String, byte[]> context;

    @Override
    public void init(FixedKeyProcessorContext<String, byte[]> context) {
      this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> r) {
      if ("boom".equals(r.key())) {
        throw new IllegalStateException("boom: a bug in a processor");
      }
      context.forward(r);
    }
  }

  @Test
  void aRecordThatMakesAProcessorThrowGoesToTheDlqAndTheNextRecordsAreProcessed() throws Exception {
    CorrelatorConfig c = config("it-regdlq-throw-" + RUN + "-");
    String in = c.anomaliesTopic();
    String out = c.alertsTopic();
    StreamsBuilder b = new StreamsBuilder();
    b.stream(in, Consumed.with(Serdes.String(), Serdes.ByteArray()))
        .processValues(Explode::new, Named.as("explode"))
        .to(out, Produced.with(Serdes.String(), Serdes.ByteArray()));
    // the correlator's own streams settings and dead-letter producer, as CorrelatorApp.start wires them
    Properties props = CorrelatorApp.streamsConfig(c);
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, c.applicationId() + "-throw");
    Map<String, Object> clientConfigs = new HashMap<>();
    props.forEach((k, v) -> clientConfigs.put(k.toString(), v));
    DeadLetterProducer dlp = DeadLetterProducer.create(clientConfigs, new RestSchemaRegistryClient(c.registry()), c.dlqTopic());
    closeMe.add(dlp);
    props.put(DeadLetterOnProcessingError.PRODUCER, dlp);
    KafkaStreams streams = new KafkaStreams(b.build(), props);
    closeMe.add(streams::close);
    streams.start();

    KafkaProducer<String, byte[]> raw = producer(new ByteArraySerializer());
    for (String k : List.of("a", "boom", "b")) {
      raw.send(new ProducerRecord<>(in, 0, k, ("value of " + k).getBytes(StandardCharsets.UTF_8)));
    }
    raw.flush();

    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "it-regdlq-out-" + RUN);
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> passed = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(out));
      await("a and b pass the processor", Duration.ofSeconds(60), () -> {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> passed.add(r.key()));
        return passed.size() >= 2;
      });
    }
    assertThat(passed).containsExactlyInAnyOrder("a", "b"); // keyed output: a and b can land on different partitions
    List<ConsumerRecord<String, DeadLetter>> dlq = deadLetters(c.dlqTopic(), Duration.ofSeconds(3));
    assertThat(dlq).hasSize(1);
    DeadLetter d = dlq.get(0).value();
    assertThat(dlq.get(0).key()).isEqualTo("boom");
    assertThat(d.getStage()).isEqualTo("streams");
    assertThat(d.getReason()).isEqualTo("processor explode failed: java.lang.IllegalStateException: boom: a bug in a processor");
    assertThat(d.getErrorClass()).isEqualTo(IllegalStateException.class.getName());
    assertThat(d.getSourceTopic()).isEqualTo(in);
    assertThat(d.getPartition()).isZero();
    assertThat(d.getOffset()).isEqualTo(1L);
    assertThat(StandardCharsets.UTF_8.decode(d.getPayload()).toString()).isEqualTo("value of boom");
    assertThat(dlp.sent()).isEqualTo(1);
    assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
  }
}
