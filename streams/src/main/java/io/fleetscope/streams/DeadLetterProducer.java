package io.fleetscope.streams;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.SchemaRegistryClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the correlator's dead letters that do not flow through the topology (a record that made a
 * processor throw) to the DLQ topic, synchronously: {@link #send} returns only once the broker has
 * the record, so the caller may skip the original. A dead letter too large for the producer's
 * max.request.size is cut to fit ({@link DeadLetterFit}), logged and counted.
 */
public final class DeadLetterProducer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterProducer.class);
  static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

  private final Producer<String, byte[]> producer;
  private final AvroSerializer<DeadLetter> serializer;
  private final String topic;
  private final int maxRequestBytes;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong truncated = new AtomicLong();

  DeadLetterProducer(Producer<String, byte[]> producer, SchemaRegistryClient registry, String topic, int maxRequestBytes) {
    this.producer = producer;
    this.serializer = new AvroSerializer<>(registry);
    this.topic = topic;
    this.maxRequestBytes = maxRequestBytes;
  }

  /**
   * A producer to {@code topic} on the brokers of {@code clientConfigs} ({@code bootstrap.servers}
   * and any {@code security.*}, {@code sasl.*}, {@code ssl.*} settings, as the streams app has them).
   */
  public static DeadLetterProducer create(Map<String, ?> clientConfigs, SchemaRegistryClient registry, String topic) {
    Map<String, Object> p = new HashMap<>();
    clientConfigs.forEach((k, v) -> {
      if (k.equals(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) || k.startsWith("security.") || k.startsWith("sasl.")
          || k.startsWith("ssl.")) {
        p.put(k, v);
      }
    });
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "correlator-dlq");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    return new DeadLetterProducer(new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer()), registry,
        topic, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
  }

  /**
   * Sends {@code dl} keyed by {@code key} and waits for the broker's acknowledgement.
   *
   * @throws IllegalStateException the broker did not take it (the caller must not skip the original)
   */
  public void send(String key, DeadLetter dl) {
    DeadLetterFit.Fitted f = DeadLetterFit.fit(dl, maxRequestBytes);
    if (f.truncated()) {
      log.warn("dead letter truncated to fit {} truncated_total={}", f.describe(maxRequestBytes), truncated.incrementAndGet());
    }
    try {
      producer.send(new ProducerRecord<>(topic, key, serializer.serialize(topic, f.deadLetter())))
          .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      sent.incrementAndGet();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending a dead letter to " + topic, e);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException("dead letter not written to " + topic + ": " + cause, cause);
    }
  }

  public long sent() {
    return sent.get();
  }

  public long truncated() {
    return truncated.get();
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
