package io.fleetscope.cli;

import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tail TOPIC [--from-beginning] [--max N] [--idle-timeout DURATION]}: decodes a topic to JSON
 * lines on stdout. A record that cannot be decoded is reported on stderr with its partition, offset
 * and reason, and skipped.
 */
@Command(name = "tail", sortOptions = false, description = "Decodes a topic to JSON lines on stdout.")
final class TailCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Parameters(paramLabel = "TOPIC", description = "the topic, e.g. fleet.gpu.v1")
  String topic;

  @Option(names = "--from-beginning", description = "start at the oldest record (default: only new records)")
  boolean fromBeginning;

  @Option(names = "--max", paramLabel = "N", description = "stop after N records")
  long max = Long.MAX_VALUE;

  @Option(names = "--idle-timeout", paramLabel = "DURATION",
      description = "stop when no record came for this long, e.g. 5s (default: never)")
  Duration idleTimeout;

  @Mixin KafkaEndpointOptions endpoints;

  private final PrintStream out;
  private final PrintStream err;

  TailCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() {
    Topics.TopicSpec spec = Topics.require(topic);
    Endpoints e = endpoints.resolve(System.getenv());
    long idle = idleTimeout == null ? 0 : idleTimeout.toNanos();
    long seen = 0;
    try (KafkaConsumer<String, ? extends SpecificRecord> c = KafkaTools.consumer(e, spec.valueClass())) {
      List<TopicPartition> parts = c.partitionsFor(spec.name(), Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
      c.assign(parts);
      if (fromBeginning) {
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
        } else if (idle > 0 && System.nanoTime() - lastRecordAt > idle) {
          break;
        }
      }
    }
    out.flush();
    return 0;
  }

}
