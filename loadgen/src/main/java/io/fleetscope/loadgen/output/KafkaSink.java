package io.fleetscope.loadgen.output;

import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.SchemaRegistryClient;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes records to Kafka in the Confluent wire format through the project's serializer, keyed
 * as ARCHITECTURE says (node for raw telemetry, device id for facility, id for inventory). The
 * record timestamp is the sample's event time.
 */
public final class KafkaSink implements RecordSink {
  private static final Logger log = LoggerFactory.getLogger(KafkaSink.class);
  private final Producer<String, SpecificRecord> producer;
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();

  private final Consumer<SimRecord> onAcked;

  public KafkaSink(Producer<String, SpecificRecord> producer) {
    this(producer, r -> { });
  }

  /** A sink that also tells {@code onAcked} of every record the broker acknowledged (on the producer's thread). */
  public KafkaSink(Producer<String, SpecificRecord> producer, Consumer<SimRecord> onAcked) {
    this.producer = producer;
    this.onAcked = onAcked;
  }

  public static KafkaSink connect(String bootstrap, String registryUrl) {
    return connect(bootstrap, KafkaClientConfig.none(), registryUrl);
  }

  /** A sink to {@code bootstrap} and the registry at {@code registryUrl}, both reached with {@code client}'s settings. */
  public static KafkaSink connect(String bootstrap, KafkaClientConfig client, String registryUrl) {
    return new KafkaSink(producer(bootstrap, client, client.registryClient(registryUrl)));
  }

  public static Producer<String, SpecificRecord> producer(String bootstrap, SchemaRegistryClient registry) {
    return producer(bootstrap, KafkaClientConfig.none(), registry);
  }

  /** The loadgen's producer (idempotent, lz4, 256 KiB batches) with {@code client}'s security settings. */
  public static Producer<String, SpecificRecord> producer(String bootstrap, KafkaClientConfig client,
      SchemaRegistryClient registry) {
    Properties p = client.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "fleetscope-loadgen");
    return new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<SpecificRecord>(registry));
  }

  @Override
  public void accept(SimRecord r) {
    Long ts = eventTime(r.value());
    producer.send(new ProducerRecord<>(r.topic(), null, ts, r.key(), r.value()), (md, ex) -> {
      if (ex != null) {
        if (failed.incrementAndGet() <= 10) {
          log.warn("kafka send failed topic={} key={} reason={}", r.topic(), r.key(), ex.toString());
        }
      } else {
        sent.incrementAndGet();
        onAcked.accept(r);
      }
    });
  }

  private static Long eventTime(SpecificRecord v) {
    org.apache.avro.Schema.Field f = v.getSchema().getField("ts");
    return f == null ? null : (Long) v.get(f.pos());
  }

  @Override
  public void flush() {
    producer.flush();
  }

  @Override
  public long failed() {
    return failed.get();
  }

  public long sent() {
    return sent.get();
  }

  @Override
  public void close() {
    producer.close();
    log.info("kafka sink closed sent={} failed={}", sent.get(), failed.get());
  }
}
