package io.fleetscope.sink.export;

import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.WireFormat;
import io.fleetscope.sink.service.RecordDecoder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads an export's records from Kafka while the broker still retains them: per partition,
 * {@link KafkaRetention} decides from the log start offset and {@code offsetsForTimes} whether the
 * range's start is still there; a topic is read from Kafka only when every partition has it (else
 * the exporter takes the topic from TimescaleDB). Records are decoded with their writer schema (by the
 * id in their Confluent header) into the topic's current class, and kept when their {@code ts} is in
 * the range. Reads with no consumer group (assign and seek), so nothing is committed.
 */
final class KafkaExportSource implements AutoCloseable {
  /** How a topic's records are chosen. */
  enum Mode {
    /** {@code from <= ts < to} */
    RANGE,
    /** as RANGE, and later records of an episode (fingerprint, starts_at) that has one in the range */
    EPISODES,
    /** compacted state: the newest record per key before {@code from}, then every change in the range */
    STATE
  }

  /** Where and how to read: topic names are {@code prefix + topic}. */
  record Settings(String bootstrap, KafkaClientConfig client, String registryUrl, String prefix, Duration lateness,
      Duration timeout) {}

  /** One record as read, with the registry id of the schema it was written with. */
  record Read(SpecificRecord value, int schemaId) {}

  /** What a topic gave: records sent to the callback, schema ids, partitions; or why Kafka could not serve it. */
  record Outcome(String kafkaTopic, long records, Set<Integer> schemaIds, int partitions, long undecodable, String unavailable) {
    boolean served() {
      return unavailable == null;
    }
  }

  private final Settings settings;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final RecordDecoder decoder;

  KafkaExportSource(Settings settings) {
    this.settings = settings;
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "fleetscope-export");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false"); // asking for a missing topic must not create it
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(settings.timeout().toMillis()));
    p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(settings.timeout().toMillis()));
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    settings.client().applyTo(p);
    this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.decoder = new RecordDecoder(settings.client().registryClient(settings.registryUrl()));
  }

  /** Throws a KafkaException when the broker does not answer within the timeout. */
  void reachable() {
    consumer.listTopics(settings.timeout());
  }

  /**
   * Reads {@code topic}'s records for [from, to) in {@code mode} that pass {@code scope}, in partition
   * and offset order, into {@code sink}; nothing goes to {@code sink} when the outcome is not served.
   */
  Outcome read(String topic, Mode mode, Instant from, Instant to, Predicate<SpecificRecord> scope, Consumer<Read> sink) {
    String name = settings.prefix() + topic;
    List<TopicPartition> parts;
    try {
      List<PartitionInfo> info = consumer.partitionsFor(name, settings.timeout());
      if (info == null || info.isEmpty()) {
        return unavailable(name, "no such topic");
      }
      parts = info.stream().map(i -> new TopicPartition(name, i.partition())).sorted((a, b) -> a.partition() - b.partition()).toList();
    } catch (KafkaException e) {
      return unavailable(name, "broker unreachable: " + e.getMessage());
    }
    Map<TopicPartition, Long> starts = consumer.beginningOffsets(parts, settings.timeout());
    Map<TopicPartition, Long> ends = consumer.endOffsets(parts, settings.timeout());
    Map<TopicPartition, long[]> ranges = new LinkedHashMap<>();
    if (mode == Mode.STATE) {
      for (TopicPartition tp : parts) {
        if (starts.get(tp) != 0) {
          return unavailable(name, "partition " + tp.partition() + ": " + KafkaRetention.compactedGap(starts.get(tp), 0, 0));
        }
        ranges.put(tp, new long[] {0, ends.get(tp)});
      }
      return readState(topic, name, parts, ranges, from, to, scope, sink);
    }
    // a record is sent after its sample is taken, so one sent before the range's start (less the lateness)
    // holds an earlier sample; the other way round does not hold (a spooled backlog, a replay), so the end
    // is found in event time: a partition is read until its samples pass the range's end by the lateness
    Map<TopicPartition, Long> atStart = offsetsAt(parts, from.minus(settings.lateness()));
    for (TopicPartition tp : parts) {
      KafkaRetention.Decision d = KafkaRetention.of(starts.get(tp), ends.get(tp), atStart.get(tp));
      if (!d.retained()) {
        return unavailable(name, "partition " + tp.partition() + ": " + d.reason());
      }
      ranges.put(tp, new long[] {d.start(), Math.max(d.start(), ends.get(tp))});
    }
    long f = from.toEpochMilli();
    long t = to.toEpochMilli();
    long past = to.plus(settings.lateness()).toEpochMilli();
    Set<Integer> ids = new TreeSet<>();
    long[] counts = new long[2]; // records, undecodable
    for (TopicPartition tp : parts) {
      Set<String> episodes = new HashSet<>();
      List<Read> after = new ArrayList<>();
      counts[1] += readPartition(topic, tp, ranges.get(tp), (r, cr) -> {
        long ts = ts(r.value());
        if (mode == Mode.RANGE && ts >= past) {
          return false;
        }
        if (!scope.test(r.value())) {
          return true;
        }
        if (ts >= f && ts < t) {
          if (mode == Mode.EPISODES) {
            episodes.add(episode(r.value()));
          }
          ids.add(r.schemaId());
          counts[0]++;
          sink.accept(r);
        } else if (mode == Mode.EPISODES && ts >= t) {
          after.add(r);
        }
        return true;
      });
      for (Read r : after) {
        if (episodes.contains(episode(r.value()))) {
          ids.add(r.schemaId());
          counts[0]++;
          sink.accept(r);
        }
      }
    }
    return new Outcome(name, counts[0], ids, parts.size(), counts[1], null);
  }

  private Outcome readState(String topic, String name, List<TopicPartition> parts, Map<TopicPartition, long[]> ranges, Instant from, Instant to,
      Predicate<SpecificRecord> scope, Consumer<Read> sink) {
    long f = from.toEpochMilli();
    long t = to.toEpochMilli();
    Map<String, Read> asOfStart = new LinkedHashMap<>();
    List<Read> changes = new ArrayList<>();
    long undecodable = 0;
    for (TopicPartition tp : parts) {
      long[] expected = {0};
      String[] gap = {null};
      undecodable += readPartition(topic, tp, ranges.get(tp), (r, cr) -> {
        if (gap[0] == null) {
          gap[0] = KafkaRetention.compactedGap(0, expected[0], cr.offset());
        }
        expected[0] = cr.offset() + 1;
        String key = tp.partition() + "/" + (cr.key() == null ? "" : new String(cr.key(), java.nio.charset.StandardCharsets.UTF_8));
        if (r == null) { // tombstone
          if (cr.timestamp() < f) {
            asOfStart.remove(key);
          }
          return true;
        }
        long ts = ts(r.value());
        if (ts < f) {
          asOfStart.put(key, r);
        } else if (ts < t) {
          changes.add(r);
        }
        return true;
      });
      if (gap[0] == null && expected[0] != ranges.get(tp)[1] && ranges.get(tp)[1] > 0) {
        gap[0] = "offsets " + expected[0] + ".." + (ranges.get(tp)[1] - 1) + " compacted away";
      }
      if (gap[0] != null) {
        return unavailable(name, "partition " + tp.partition() + ": " + gap[0]);
      }
    }
    Set<Integer> ids = new TreeSet<>();
    long n = 0;
    for (List<Read> part : List.of(new ArrayList<>(asOfStart.values()), changes)) {
      for (Read r : part) {
        if (scope.test(r.value())) {
          ids.add(r.schemaId());
          n++;
          sink.accept(r);
        }
      }
    }
    return new Outcome(name, n, ids, parts.size(), undecodable, null);
  }

  /**
   * Reads [range[0], range[1]) of one partition of {@code topic} (or of the prefixed topic mirroring it); each decoded record (null for a tombstone) to {@code each}
   * until it answers false; the undecodable count.
   */
  private long readPartition(String topic, TopicPartition tp, long[] range, BiPredicate<Read, ConsumerRecord<byte[], byte[]>> each) {
    if (range[0] >= range[1]) {
      return 0;
    }
    consumer.assign(List.of(tp));
    consumer.seek(tp, range[0]);
    long undecodable = 0;
    long deadline = System.nanoTime() + settings.timeout().toNanos();
    while (consumer.position(tp) < range[1]) {
      var batch = consumer.poll(Duration.ofMillis(200));
      if (batch.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new KafkaException("no records from " + tp + " at offset " + consumer.position(tp) + " for " + settings.timeout()
              + " (end " + range[1] + ")");
        }
        continue;
      }
      deadline = System.nanoTime() + settings.timeout().toNanos();
      for (ConsumerRecord<byte[], byte[]> cr : batch.records(tp)) {
        if (cr.offset() >= range[1]) {
          break;
        }
        if (cr.value() == null) {
          if (!each.test(null, cr)) {
            return undecodable;
          }
          continue;
        }
        // decoded as the topic it mirrors (a prefixed topic holds that topic's records)
        RecordDecoder.Decoded d = decoder.decode(new ConsumerRecord<>(topic, cr.partition(), cr.offset(), cr.key(), cr.value()));
        if (d.record() == null) {
          undecodable++;
          continue;
        }
        if (!each.test(new Read(d.record().value(), WireFormat.schemaId(cr.value())), cr)) {
          return undecodable;
        }
      }
    }
    return undecodable;
  }

  private Map<TopicPartition, Long> offsetsAt(List<TopicPartition> parts, Instant at) {
    Map<TopicPartition, Long> query = new HashMap<>();
    parts.forEach(tp -> query.put(tp, Math.max(0, at.toEpochMilli())));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, settings.timeout());
    Map<TopicPartition, Long> out = new HashMap<>();
    found.forEach((tp, o) -> {
      if (o != null) {
        out.put(tp, o.offset());
      }
    });
    return out;
  }

  private static Outcome unavailable(String name, String why) {
    return new Outcome(name, 0, Set.of(), 0, 0, why);
  }

  static long ts(SpecificRecord r) {
    Schema.Field f = r.getSchema().getField("ts");
    Object v = f == null ? null : r.get(f.pos());
    return v instanceof Long l ? l : Long.MIN_VALUE;
  }

  private static String episode(SpecificRecord r) {
    Schema s = r.getSchema();
    return r.get(s.getField("fingerprint").pos()) + "@" + r.get(s.getField("starts_at").pos());
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
