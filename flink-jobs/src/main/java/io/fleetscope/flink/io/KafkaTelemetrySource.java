package io.fleetscope.flink.io;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.Backoff;
import io.fleetscope.serde.RegistryWait;
import io.fleetscope.serde.RegistryWaitAbortedException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * One KafkaSource per raw topic, values decoded by the project's Confluent-wire-format
 * {@link AvroDeserializer} (writer schema by id from the registry, read into the topic's class).
 * A record that cannot be decoded becomes a DeadLetter with topic, partition, offset, key and the
 * original bytes; tombstones (null values on compacted topics) are skipped. A registry that cannot
 * answer (down, restarting, 5xx) is not the record's fault: the decoder waits it out with a capped
 * back-off ({@link RegistryWait}), holding up the source reader instead of dead-lettering, and a
 * cancel (which interrupts the task thread) ends the wait. Only a schema id the registry does not
 * know is dead-lettered, with that reason. Watermarks are
 * generated per partition by the source (see TelemetryWatermarks).
 */
public final class KafkaTelemetrySource implements TelemetrySource {
  private static final long serialVersionUID = 1L;

  private final KafkaEndpoints endpoints;
  private final WallClock clock;
  private final boolean stopAtLatest;

  public KafkaTelemetrySource(KafkaEndpoints endpoints, WallClock clock) {
    this(endpoints, clock, false);
  }

  /** @param stopAtLatest read up to the offsets that are latest at start, then end (replays, benchmarks) */
  public KafkaTelemetrySource(KafkaEndpoints endpoints, WallClock clock, boolean stopAtLatest) {
    this.endpoints = endpoints;
    this.clock = clock;
    this.stopAtLatest = stopAtLatest;
  }

  @Override
  public DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks) {
    // per-split (partition) watermarks: the KafkaSource reader keeps one generator per partition
    return env.fromSource(builder(topic).build(), watermarks, "kafka-" + topic.name())
        .uid("kafka-" + topic.name());
  }

  /**
   * The reader's own KafkaSource (uid {@code kafka-<reader>-<topic>}), in the same consumer group:
   * with no state of its own (a first start, or a savepoint taken before the reader existed) it
   * starts where the first reader's committed offsets are, not at the start of the topic's
   * retention, which would hand on days of old events again. Its consumers' client ids carry the
   * reader's name.
   */
  @Override
  public DataStream<SpecificRecord> openReader(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks, String reader) {
    String uid = "kafka-" + reader + "-" + topic.name();
    KafkaSource<SpecificRecord> source = builder(topic)
        .setProperty("client.id.prefix", endpoints.groupId() + "-" + reader + "-" + topic.name())
        .build();
    return env.fromSource(source, watermarks, uid).uid(uid);
  }

  private KafkaSourceBuilder<SpecificRecord> builder(Topics.TopicSpec topic) {
    var builder = KafkaSource.<SpecificRecord>builder()
        .setBootstrapServers(endpoints.bootstrapServers())
        .setTopics(endpoints.topic(topic.name()))
        .setGroupId(endpoints.groupId())
        .setStartingOffsets(OffsetsInitializer.committedOffsets(
            endpoints.fromEarliest() ? OffsetResetStrategy.EARLIEST : OffsetResetStrategy.LATEST))
        .setDeserializer(new Decoder(topic, endpoints.registryUrl(), endpoints.client(), clock))
        .setProperty("partition.discovery.interval.ms", "60000");
    endpoints.client().kafkaProperties().forEach(builder::setProperty);
    if (stopAtLatest) {
      builder.setBounded(OffsetsInitializer.latest());
    }
    return builder;
  }

  @Override
  public boolean bounded() {
    return stopAtLatest;
  }

  /** Kafka record -> topic value or DeadLetter. */
  static final class Decoder implements KafkaRecordDeserializationSchema<SpecificRecord> {
    private static final long serialVersionUID = 1L;
    private final String topic;
    private final Class<? extends SpecificRecord> valueClass;
    private final String registryUrl;
    private final KafkaClientConfig client;
    private final WallClock clock;
    private transient AvroDeserializer<? extends SpecificRecord> deserializer;

    Decoder(Topics.TopicSpec spec, String registryUrl, WallClock clock) {
      this(spec, registryUrl, KafkaClientConfig.none(), clock);
    }

    Decoder(Topics.TopicSpec spec, String registryUrl, KafkaClientConfig client, WallClock clock) {
      this.topic = spec.name();
      this.valueClass = spec.valueClass();
      this.registryUrl = registryUrl;
      this.client = client;
      this.clock = clock;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
      deserializer = new AvroDeserializer<>(client.registryClient(registryUrl), valueClass,
          new RegistryWait(Backoff.REGISTRY));
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<SpecificRecord> out) {
      if (r.value() == null) {
        return;
      }
      if (deserializer == null) {
        open(null);
      }
      SpecificRecord value;
      try {
        value = deserializer.deserialize(topic, r.value());
      } catch (RegistryWaitAbortedException e) {
        throw e; // the task is being cancelled: the record is read again after the restart
      } catch (RuntimeException e) {
        String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
        out.collect(DeadLetters.undecodable(topic, r.partition(), r.offset(), key, r.value(), null, e, clock.now()));
        return;
      }
      out.collect(value);
    }

    @Override
    public TypeInformation<SpecificRecord> getProducedType() {
      return AvroTypeInfo.anyOf(valueClass, DeadLetter.class);
    }
  }
}
