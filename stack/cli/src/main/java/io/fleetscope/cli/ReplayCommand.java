package io.fleetscope.cli;

import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.TopicSettings;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code replay DIR [--speed max|1x|Nx] [--prefix P]}: publishes a bundle's raw and state records
 * (or a directory of {@code *.jsonl} files) back to Kafka in event-time order. At {@code 1x} the gaps
 * between sample times are kept; {@code max} sends as fast as the broker takes them. With
 * {@code --prefix P} every record goes to topic {@code P<topic>} (created like the topic it mirrors, but
 * without time-based retention: the records keep their original times),
 * so a replay into a running stack stays apart from the live topics. The analytics read and write
 * that set with {@code RunMain --topic-prefix P --group-id G} and the correlator with
 * {@code correlator --topic-prefix P} (its own application id); {@code export --prefix P} reads it
 * back into a bundle. {@code fleetscope run --topic-prefix P} starts both over that set, beside the
 * stack.
 */
@Command(name = "replay", sortOptions = false,
    description = "Publishes a bundle's raw and state records (or a directory of JSON-lines files) back to Kafka in"
        + " event-time order, optionally into prefixed topics.")
final class ReplayCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Parameters(paramLabel = "DIR", description = "a bundle (export, incident export), or a directory of *.jsonl files")
  Path dir;

  @Option(names = "--prefix", paramLabel = "P",
      description = "publish to topics P<topic>, created like the topics they mirror but without time-based retention (default: the topics themselves)")
  String prefix = "";

  @Option(names = "--speed", paramLabel = "max|1x|Nx",
      description = "max: as fast as the broker takes them; 1x keeps the gaps between sample times (default: ${DEFAULT-VALUE})")
  String speedText = "max";

  @Mixin KafkaEndpointOptions endpoints;

  private final PrintStream out;
  private final PrintStream err;

  ReplayCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws IOException {
    double speed = parseSpeed(speedText);
    if (!prefix.isEmpty() && !prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("--prefix may hold letters, digits, '.', '_' and '-' only; got '" + prefix + "'");
    }
    if (BundleReader.isBundle(dir)) {
      return replayBundle(BundleReader.open(dir), speed);
    }
    if (!prefix.isEmpty()) {
      throw new IllegalArgumentException("--prefix needs a bundle directory (with manifest.json); " + dir + " has none");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().collect(Collectors.toList());
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no *.jsonl files in " + dir);
    }
    long total = 0;
    for (Path f : files) {
      try (Stream<String> lines = Files.lines(f)) {
        total += lines.filter(l -> !l.isBlank()).count();
      }
    }
    out.printf("replay dir=%s files=%d records=%d speed=%s%n", dir, files.size(), total, speedText);
    Endpoints e = endpoints.resolve(System.getenv());
    List<Source> sources = new ArrayList<>();
    PriorityQueue<Source> heap = new PriorityQueue<>((x, y) -> Long.compare(x.headTs, y.headTs));
    long sent = 0;
    long bad = 0;
    long startWall = System.nanoTime();
    long firstTs = Long.MIN_VALUE;
    long lastReport = System.nanoTime();
    try (KafkaProducer<String, SpecificRecord> p = KafkaTools.producer(e)) {
      for (Path f : files) {
        Source s = new Source(f, Files.newBufferedReader(f, StandardCharsets.UTF_8), err);
        sources.add(s);
        if (s.advance()) {
          heap.add(s);
        }
      }
      while (!heap.isEmpty()) {
        Source s = heap.poll();
        JsonLines.Line l = s.head;
        if (speed > 0) {
          if (firstTs == Long.MIN_VALUE) {
            firstTs = s.headTs;
          }
          long dueNanos = startWall + (long) ((s.headTs - firstTs) * 1_000_000L / speed);
          long wait = dueNanos - System.nanoTime();
          if (wait > 0) {
            p.flush();
            try {
              Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
            } catch (InterruptedException ie) {
              Thread.currentThread().interrupt();
              break;
            }
          }
        }
        p.send(new ProducerRecord<>(l.topic(), l.key(), l.value()));
        sent++;
        if (System.nanoTime() - lastReport > 5_000_000_000L) {
          out.printf("replay progress sent=%d total=%d pct=%.1f%n", sent, total, 100.0 * sent / Math.max(1, total));
          lastReport = System.nanoTime();
        }
        if (s.advance()) {
          heap.add(s);
        }
      }
      p.flush();
    } finally {
      for (Source s : sources) {
        bad += s.bad;
        s.close();
      }
    }
    out.printf("replay done sent=%d rejected=%d seconds=%.1f%n", sent, bad, (System.nanoTime() - startWall) / 1e9);
    return bad == 0 ? 0 : 3;
  }

  private int replayBundle(BundleReader bundle, double speed) {
    List<JsonLines.Line> lines = bundle.lines(BundleRole::isInput);
    out.printf("replay bundle=%s records=%d speed=%s prefix=%s%n", dir, lines.size(), speedText, prefix);
    Endpoints e = endpoints.resolve(System.getenv());
    if (!prefix.isEmpty()) {
      List<TopicSettings> wanted = lines.stream().map(JsonLines.Line::topic).distinct()
          .map(t -> Topics.require(t).settings().forReplay(prefix)).toList();
      TopicBootstrap.ensure(e.kafka(), e.kafkaClient(), wanted);
    }
    long startWall = System.nanoTime();
    long sent = 0;
    try (KafkaProducer<String, SpecificRecord> p = KafkaTools.producer(e)) {
      long firstTs = lines.isEmpty() ? 0 : BundleReader.ts(lines.get(0));
      for (JsonLines.Line l : lines) {
        if (speed > 0 && !pace(p, startWall, BundleReader.ts(l) - firstTs, speed)) {
          break;
        }
        p.send(new ProducerRecord<>(prefix + l.topic(), l.key(), l.value()));
        sent++;
      }
      p.flush();
    }
    out.printf("replay done sent=%d rejected=0 seconds=%.1f%n", sent, (System.nanoTime() - startWall) / 1e9);
    return 0;
  }

  /** Waits until {@code offsetMs} of event time (divided by {@code speed}) has passed since {@code startWall}; false if interrupted. */
  private static boolean pace(KafkaProducer<String, SpecificRecord> p, long startWall, long offsetMs, double speed) {
    long wait = startWall + (long) (offsetMs * 1_000_000L / speed) - System.nanoTime();
    if (wait <= 0) {
      return true;
    }
    p.flush();
    try {
      Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
      return true;
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static double parseSpeed(String s) {
    if ("max".equals(s)) {
      return 0;
    }
    try {
      double v = Double.parseDouble(s.endsWith("x") ? s.substring(0, s.length() - 1) : s);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException ignored) {
      // fall through to the usage error
    }
    throw new IllegalArgumentException("--speed must be max, 1x or another positive multiple like 10x; got '" + s + "'");
  }

  /** One file of the dataset, read one line ahead. */
  private static final class Source implements AutoCloseable {
    final Path file;
    final BufferedReader reader;
    final PrintStream err;
    JsonLines.Line head;
    long headTs;
    long lineNo;
    long bad;

    Source(Path file, BufferedReader reader, PrintStream err) {
      this.file = file;
      this.reader = reader;
      this.err = err;
    }

    boolean advance() {
      try {
        String line;
        while ((line = reader.readLine()) != null) {
          lineNo++;
          if (line.isBlank()) {
            continue;
          }
          try {
            head = JsonLines.parse(line);
            Object ts = head.value() == null ? null : head.value().get(head.value().getSchema().getField("ts").pos());
            headTs = ts instanceof Long ? (Long) ts : 0L;
            return true;
          } catch (IllegalArgumentException ex) {
            bad++;
            err.printf("replay file=%s line=%d status=rejected reason=\"%s\"%n", file, lineNo, ex.getMessage());
          }
        }
        return false;
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

}
