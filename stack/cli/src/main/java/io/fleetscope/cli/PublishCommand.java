package io.fleetscope.cli;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code publish --in FILE.jsonl}: encodes JSON lines (ARCHITECTURE's interchange) with the registry
 * and publishes them. A line that does not parse is reported with its line number and reason and
 * sent to fleet.dlq.v1; the others are still published. Exit code 3 when any line was rejected.
 */
@Command(name = "publish", sortOptions = false,
    description = "Encodes JSON lines with the registry and publishes them; rejected lines go to fleet.dlq.v1 (exit 3).")
final class PublishCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--in", paramLabel = "FILE.jsonl", required = true, description = "the JSON lines to publish")
  Path in;

  @Mixin KafkaEndpointOptions endpoints;

  private final PrintStream out;
  private final PrintStream err;

  PublishCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws IOException {
    Endpoints e = endpoints.resolve(System.getenv());
    AtomicLong sent = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long rejected = 0;
    long lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.UTF_8);
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
          p.send(new ProducerRecord<>(Topics.DLQ, null, deadLetter(in.toString(), lineNo, line, ex.getMessage())));
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

}
