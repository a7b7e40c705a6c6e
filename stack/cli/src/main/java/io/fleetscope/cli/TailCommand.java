package io.fleetscope.cli;

import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;

/**
 * {@code tail TOPIC [--from-beginning] [--max N] [--idle-timeout S]}: decodes a topic to JSON lines on
 * stdout. A record that cannot be decoded is reported on stderr with its partition, offset and
 * reason, and skipped.
 */
final class TailCommand {
  static int run(String[] argv, Endpoints base, PrintStream out, PrintStream err) {
    Args a = Args.parse(argv, Set.of("max", "idle-timeout", "kafka", "registry"), Set.of("from-beginning"));
    if (a.positional().size() != 1) {
      throw new Args.UsageException("usage: tail TOPIC [--from-beginning] [--max N] [--idle-timeout SECONDS]");
    }
    Topics.TopicSpec spec = Topics.require(a.positional().get(0));
    Endpoints e = base.withFlags(a);
    long max = a.getInt("max", Integer.MAX_VALUE);
    int idle = a.getInt("idle-timeout", 0);
    long seen = 0;
    try (KafkaConsumer<String, ? extends SpecificRecord> c = KafkaTools.consumer(e, spec.valueClass())) {
      List<TopicPartition> parts = c.partitionsFor(spec.name(), Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
      c.assign(parts);
      if (a.has("from-beginning")) {
        c.seekToBeginning(parts);
      } else {
        c.seekToEnd(parts);
      }
      long lastRecordAt = System.nanoTime();
      while (seen < max) {
        ConsumerRecords<String, ? extends SpecificRecord> recs;
        try {
          recs = c.poll(Duration.ofMillis(500));
        } catch (RecordDeserializationException ex) {
          err.printf("tail topic=%s partition=%d offset=%d error=\"%s\"%n", spec.name(),
              ex.topicPartition().partition(), ex.offset(), ex.getMessage());
          c.seek(ex.topicPartition(), ex.offset() + 1);
          continue;
        }
        for (ConsumerRecord<String, ? extends SpecificRecord> r : recs) {
          out.println(JsonLines.toJson(new JsonLines.Line(spec.name(), r.key(), r.value())));
          if (++seen >= max) {
            break;
          }
        }
        if (!recs.isEmpty()) {
          lastRecordAt = System.nanoTime();
        } else if (idle > 0 && System.nanoTime() - lastRecordAt > idle * 1_000_000_000L) {
          break;
        }
      }
    }
    out.flush();
    return 0;
  }

  private TailCommand() {}
}
