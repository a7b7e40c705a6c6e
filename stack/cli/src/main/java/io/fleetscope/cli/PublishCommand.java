package io.fleetscope.cli;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code publish --in FILE.jsonl}: encodes JSON lines (ARCHITECTURE's interchange) with the registry
 * and publishes them. A line that does not parse is reported with its line number and reason and
 * sent to fleet.dlq.v1; the others are still published. Exit code 3 when any line was rejected.
 */
final class PublishCommand {
  static int run(String[] argv, Endpoints base, PrintStream out, PrintStream err) throws IOException {
    Args a = Args.parse(argv, Set.of("in", "kafka", "registry"), Set.of());
    String in = a.get("in", null);
    if (in == null) {
      throw new Args.UsageException("usage: publish --in FILE.jsonl");
    }
    Endpoints e = base.withFlags(a);
    AtomicLong sent = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long rejected = 0;
    long lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(Path.of(in), StandardCharsets.UTF_8);
        KafkaProducer<String, SpecificRecord> p = KafkaTools.producer(e)) {
      String line;
      while ((line = r.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        JsonLines.Line l;
        try {
          l = JsonLines.parse(line);
        } catch (IllegalArgumentException ex) {
          rejected++;
          err.printf("publish file=%s line=%d status=rejected reason=\"%s\"%n", in, lineNo, ex.getMessage());
          p.send(new ProducerRecord<>(Topics.DLQ, null, deadLetter(in, lineNo, line, ex.getMessage())));
          continue;
        }
        final long n = lineNo;
        p.send(new ProducerRecord<>(l.topic(), l.key(), l.value()), (md, ex) -> {
          if (ex == null) {
            sent.incrementAndGet();
          } else {
            failed.incrementAndGet();
            err.printf("publish file=%s line=%d status=failed reason=\"%s\"%n", in, n, ex.getMessage());
          }
        });
      }
      p.flush();
    }
    out.printf("publish file=%s sent=%d rejected=%d failed=%d%n", in, sent.get(), rejected, failed.get());
    return rejected + failed.get() == 0 ? 0 : 3;
  }

  static DeadLetter deadLetter(String file, long lineNo, String line, String reason) {
    return DeadLetter.newBuilder().setTs(System.currentTimeMillis()).setStage("publish")
        .setReason(reason).setKey(file + ":" + lineNo)
        .setPayload(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8))).build();
  }

  private PublishCommand() {}
}
