package io.fleetscope.loadgen.bench.chaos;

import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads topics from their first to their current last offset (no consumer group, nothing committed)
 * and hands every decoded record on: the raw topics' ids for the duplicate count, the anomalies for
 * the comparison with {@code analyze}.
 */
public final class TopicTally {
  private TopicTally() {}

  /** Every record of {@code topics}, one topic after the other, as they are now. */
  public static void read(String kafka, String registry, Collection<String> topics, Consumer<ConsumerRecord<String, SpecificRecord>> each) {
    for (String t : topics) {
      readOne(kafka, registry, t, each);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void readOne(String kafka, String registry, String topic, Consumer<ConsumerRecord<String, SpecificRecord>> each) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    AvroDeserializer<SpecificRecord> d = new AvroDeserializer(new RestSchemaRegistryClient(registry),
        Topics.require(topic).valueClass());
    try (KafkaConsumer<String, SpecificRecord> c = new KafkaConsumer<>(p, new StringDeserializer(), d)) {
      List<TopicPartition> parts = new ArrayList<>();
      List<PartitionInfo> info = c.partitionsFor(topic, Duration.ofSeconds(30));
      if (info != null) {
        info.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (!caughtUp(c, end)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("reading " + topic + " took over 5 minutes");
        }
        for (ConsumerRecord<String, SpecificRecord> r : c.poll(Duration.ofMillis(500))) {
          each.accept(r);
        }
      }
    }
  }

  /** The ids of every raw record on {@code topics}, repeats counted. */
  public static RecordTally rawIds(String kafka, String registry, Collection<String> topics) {
    RecordTally t = new RecordTally();
    read(kafka, registry, topics, r -> {
      if (r.value() != null) {
        t.add(RecordId.of(r.topic(), r.value()));
      }
    });
    return t;
  }

  private static boolean caughtUp(KafkaConsumer<?, ?> c, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (c.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }
}
