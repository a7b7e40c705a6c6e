package io.fleetscope.flink.io;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every output to its topic ({@link OutputRouting}) with the project's
 * {@link AvroSerializer} (Confluent wire format, subject {@code <topic>-value}), keyed per
 * ARCHITECTURE. At-least-once: the correlator and the sink are idempotent per key. A dead letter
 * larger than the producer's max.request.size is cut to fit ({@link DeadLetterFit}), logged and
 * counted (metric {@code deadLettersTruncated}), never refused by Kafka and lost.
 */
public final class KafkaOutputSink implements OutputSink {
  private final KafkaEndpoints endpoints;

  public KafkaOutputSink(KafkaEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  @Override
  public void attach(DataStream<SpecificRecord> outputs) {
    outputs.sinkTo(sink("20")).name("kafka-outputs").uid("kafka-outputs");
  }

  /** A second Kafka writer, {@code kafka-outputs-<name>}, that sends at once (no linger). */
  @Override
  public boolean attachSeparately(DataStream<SpecificRecord> outputs, String name) {
    outputs.sinkTo(sink("0")).name("kafka-outputs-" + name).uid("kafka-outputs-" + name);
    return true;
  }

  private KafkaSink<SpecificRecord> sink(String lingerMs) {
    var builder = KafkaSink.<SpecificRecord>builder()
        .setBootstrapServers(endpoints.bootstrapServers())
        .setRecordSerializer(new Encoder(endpoints.registryUrl(), endpoints.client(), DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES,
            endpoints.topicPrefix()))
        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
        .setProperty("linger.ms", lingerMs);
    endpoints.client().kafkaProperties().forEach(builder::setProperty);
    return builder.build();
  }

  static final class Encoder implements KafkaRecordSerializationSchema<SpecificRecord> {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(Encoder.class);
    private final String registryUrl;
    private final KafkaClientConfig client;
    private final int maxRequestBytes;
    private final String topicPrefix;
    private transient AvroSerializer<SpecificRecord> serializer;
    private transient Counter truncated;
    private transient long truncatedTotal;

    Encoder(String registryUrl, KafkaClientConfig client) {
      this(registryUrl, client, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    }

    /** @param maxRequestBytes the producer's max.request.size (dead letters are cut to fit it) */
    Encoder(String registryUrl, KafkaClientConfig client, int maxRequestBytes) {
      this(registryUrl, client, maxRequestBytes, "");
    }

    /** @param topicPrefix written to topics {@code <prefix><topic>} */
    Encoder(String registryUrl, KafkaClientConfig client, int maxRequestBytes, String topicPrefix) {
      this.registryUrl = registryUrl;
      this.client = client;
      this.maxRequestBytes = maxRequestBytes;
      this.topicPrefix = topicPrefix;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
      truncated = context.getMetricGroup().counter("deadLettersTruncated");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(SpecificRecord r, KafkaSinkContext ctx, Long timestamp) {
      if (serializer == null) {
        serializer = new AvroSerializer<>(client.registryClient(registryUrl));
      }
      if (r instanceof DeadLetter d) {
        r = fit(d);
      }
      String topic = topicPrefix + OutputRouting.topicOf(r);
      String key = OutputRouting.keyOf(r);
      return new ProducerRecord<>(topic, null, kafkaTimestamp(r, timestamp),
          key == null ? null : key.getBytes(StandardCharsets.UTF_8), serializer.serialize(topic, r));
    }

    /**
     * The Kafka timestamp of {@code r}: its stream timestamp, or its own event time where the stream
     * gives none that Kafka accepts: a record emitted from a processing-time timer has none, one
     * emitted from the end-of-input timer ({@code Long.MAX_VALUE}) has one the broker refuses (both
     * as a fast path releases the records it held for their node's inventory). Null (the producer's
     * clock) only for a record without a time field.
     */
    static Long kafkaTimestamp(SpecificRecord r, Long streamTs) {
      if (streamTs != null && streamTs != Long.MAX_VALUE) {
        return streamTs;
      }
      long ts = Records.ts(r);
      return ts == Long.MIN_VALUE ? null : ts;
    }

    private DeadLetter fit(DeadLetter d) {
      DeadLetterFit.Fitted f = DeadLetterFit.fit(d, maxRequestBytes);
      if (f.truncated()) {
        truncatedTotal++;
        if (truncated != null) {
          truncated.inc();
        }
        log.warn("dead letter truncated to fit {} truncated_total={}", f.describe(maxRequestBytes), truncatedTotal);
      }
      return f.deadLetter();
    }
  }
}
