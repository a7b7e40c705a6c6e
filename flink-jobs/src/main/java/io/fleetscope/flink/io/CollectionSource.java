package io.fleetscope.flink.io;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A bounded source over records held in memory: from a JSON-lines file (analyze) or a collection
 * (tests). Lines that cannot be parsed become DeadLetters of their topic (or of fleet.dlq.v1 when
 * the topic itself is unreadable), with the line number and the parser's reason.
 */
public final class CollectionSource implements TelemetrySource, AutoCloseable {
  private static final long serialVersionUID = 1L;

  private final Map<String, List<SpecificRecord>> byTopic = new HashMap<>();
  /** The {@link LocalRecordStore} handles of the readers opened, released by {@link #close()}. */
  private final transient List<String> handles = new ArrayList<>();

  public CollectionSource(Collection<? extends SpecificRecord> records) {
    for (SpecificRecord r : records) {
      String topic = r instanceof DeadLetter d && d.getSourceTopic() != null ? d.getSourceTopic() : OutputRouting.topicOf(r);
      byTopic.computeIfAbsent(topic, t -> new ArrayList<>()).add(r);
    }
  }

  /** Reads a JSON-lines file (ARCHITECTURE interchange); blank lines are skipped. */
  public static CollectionSource fromJsonLines(Path file, WallClock clock) {
    // line by line: the file's text is never held whole next to its records
    List<SpecificRecord> out = new ArrayList<>();
    String name = file.getFileName().toString();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      long n = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        add(out, line, ++n, name, clock);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return new CollectionSource(out);
  }

  public static CollectionSource fromJsonLines(List<String> lines, String name, WallClock clock) {
    List<SpecificRecord> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      add(out, lines.get(i), i + 1, name, clock);
    }
    return new CollectionSource(out);
  }

  private static void add(List<SpecificRecord> out, String line, long lineNo, String name, WallClock clock) {
    if (line.isBlank()) {
      return;
    }
    try {
      JsonLines.Line l = JsonLines.parse(line);
      if (l.value() != null) { // null: a tombstone of a compacted topic, nothing to analyse
        out.add(l.value());
      }
    } catch (RuntimeException e) {
      String topic = guessTopic(line);
      out.add(DeadLetters.undecodable(topic, null, lineNo, null, null,
          line.length() > 8192 ? line.substring(0, 8192) : line,
          new IllegalArgumentException(name + " line " + lineNo + ": " + e.getMessage(), e), clock.now()));
    }
  }

  private static String guessTopic(String line) {
    for (String t : Topics.all().keySet()) {
      if (line.contains("\"" + t + "\"")) {
        return t;
      }
    }
    return Topics.DLQ;
  }

  public int size() {
    return byTopic.values().stream().mapToInt(List::size).sum();
  }

  /**
   * The same records again, through operators of their own (uids {@code ...-<reader>-<topic>}),
   * partitioned by node (or device) as the agents key them on Kafka: a node's records reach one
   * subtask, in input order, whatever the parallelism (the first reader splits the input into
   * contiguous ranges instead, which a fast path, deciding per record as it arrives, would see out of
   * order at a range's start).
   */
  @Override
  public DataStream<SpecificRecord> openReader(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks, String reader) {
    String name = reader + "-" + topic.name();
    List<SpecificRecord> rs = byTopic.getOrDefault(topic.name(), List.of());
    String h = hold(rs);
    DataStream<Long> idx = rs.isEmpty()
        ? env.fromSequence(0, 0).uid("sequence-" + name).filter(i -> false)
            .name("source-" + name + "-empty").uid("source-" + name + "-empty")
        : env.fromSequence(0, rs.size() - 1).uid("sequence-" + name).setParallelism(1)
            .partitionCustom((String node, int parts) -> Math.floorMod(java.util.Objects.hashCode(node), parts),
                i -> Records.nodeOrDevice(LocalRecordStore.get(h).get((int) (long) i)));
    return idx.map(i -> LocalRecordStore.get(h).get((int) (long) i))
        .returns(AvroTypeInfo.anyOf(topic.valueClass(), DeadLetter.class))
        .name("source-" + name).uid("source-" + name)
        .assignTimestampsAndWatermarks(watermarks).name("watermarks-" + name).uid("watermarks-" + name);
  }

  @Override
  public DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks) {
    List<SpecificRecord> rs = byTopic.getOrDefault(topic.name(), List.of());
    String h = hold(rs);
    // contiguous ranges of the input, one per parallel subtask, each in input order, like the
    // partitions of a topic. The indexes come from one ordered source and are routed to their
    // range's subtask: a parallel sequence source hands its splits out on request, so one subtask
    // could read a later range before an earlier one and make all of the earlier one late.
    long n = rs.size();
    DataStream<Long> idx = rs.isEmpty()
        ? env.fromSequence(0, 0).uid("sequence-" + topic.name()).filter(i -> false)
            .name("source-" + topic.name() + "-empty").uid("source-" + topic.name() + "-empty")
        : env.fromSequence(0, n - 1).uid("sequence-" + topic.name()).setParallelism(1)
            .partitionCustom((Long i, int ranges) -> (int) (i * ranges / n), i -> i);
    // each subtask sees its range in order, so its watermark is one per range
    return idx.map(i -> LocalRecordStore.get(h).get((int) (long) i))
        .returns(AvroTypeInfo.anyOf(topic.valueClass(), DeadLetter.class))
        .name("source-" + topic.name()).uid("source-" + topic.name())
        .assignTimestampsAndWatermarks(watermarks).name("watermarks-" + topic.name()).uid("watermarks-" + topic.name());
  }

  /** Records whose topic is none of the raw topics (e.g. lines that named no topic). */
  public List<SpecificRecord> unrouted(Collection<String> rawTopics) {
    List<SpecificRecord> out = new ArrayList<>();
    byTopic.forEach((t, rs) -> {
      if (!rawTopics.contains(t)) {
        out.addAll(rs);
      }
    });
    return out;
  }

  @Override
  public boolean bounded() {
    return true;
  }

  /** The operators read the records through a handle (see {@link LocalRecordStore}), not a copy. */
  private String hold(List<SpecificRecord> rs) {
    String h = LocalRecordStore.hold(rs);
    handles.add(h);
    return h;
  }

  /** Lets go of the records the opened readers held; the job must have ended. */
  @Override
  public void close() {
    handles.forEach(LocalRecordStore::release);
    handles.clear();
  }
}
