package io.fleetscope.stack.services.registry;

import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.TopicSettings;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The registry's state in a compacted, single-partition Kafka topic (default {@code _schemas}),
 * as Confluent's registry keeps it. Appends are synchronous (acks=all, idempotent producer).
 */
public final class KafkaSchemaLog implements SchemaLog {
  public static final String DEFAULT_TOPIC = "_schemas";

  private final String bootstrap;
  private final String topic;
  private final KafkaClientConfig client;
  private final KafkaProducer<String, String> producer;

  public KafkaSchemaLog(String bootstrap, String topic) {
    this(bootstrap, KafkaClientConfig.none(), topic);
  }

  /** The log in {@code topic} on {@code bootstrap}, reached with the client's security settings. */
  public KafkaSchemaLog(String bootstrap, KafkaClientConfig client, String topic) {
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.client = client;
    ensureTopic();
    Properties p = client.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  /**
   * Creates the registry's topic, compacted and with one partition so that its records keep one order.
   * It is the registry's own, not one of the pipeline's {@code Topics}: a real registry creates it
   * itself.
   */
  private void ensureTopic() {
    try {
      TopicBootstrap.ensure(bootstrap, client, List.of(TopicSettings.compacted(topic, 1)));
    } catch (IllegalStateException e) {
      throw new IllegalStateException("registry: " + e.getMessage() + " (kafka " + bootstrap + ")", e);
    }
  }

  @Override
  public void replay(BiConsumer<String, String> apply) {
    Properties p = client.applyTo(new Properties());
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    TopicPartition tp = new TopicPartition(topic, 0);
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (c.position(tp, Duration.ofSeconds(30)) < end) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("registry: replay of " + topic + " did not reach offset " + end);
        }
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
          if (r.key() != null) {
            apply.accept(r.key(), r.value());
          }
        }
      }
    }
  }

  @Override
  public void append(String key, String value) {
    try {
      producer.send(new ProducerRecord<>(topic, 0, key, value)).get(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing to " + topic, e);
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException("write to " + topic + " failed: " + cause, cause);
    }
  }

  public String topic() {
    return topic;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
