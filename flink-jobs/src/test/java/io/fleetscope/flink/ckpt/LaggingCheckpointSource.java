package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.OutputRouting;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.io.TelemetrySource;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A streaming source whose records of every raw topic come from one paced script, so that the test
 * decides what reaches the analytics before what: fleet.ckpt.v1 arrives {@code lagMs} of event time
 * behind the other topics. Watermarks are the ones a Kafka partition would give, made deterministic:
 * every record moves its topic's watermark to {@code ts - out_of_orderness - 1}; the sparse topics
 * (checkpoints, inventory, jobs) then go idle at once, as their partitions do after
 * {@code event_idleness_ms} without records, and the XIDs never do; a topic without any record in the
 * script (fleet.storage.v1 in most runs) is idle from the start, as an empty partition is after its
 * idleness timeout. Run it with a buffer timeout
 * of 0, so records and watermarks travel as they are emitted, and at parallelism 1, so that each
 * stage has one input channel per stream and only the streams can overtake one another.
 */
final class LaggingCheckpointSource implements TelemetrySource {
  private static final long serialVersionUID = 1L;
  private static final Set<String> SPARSE = Set.of(Topics.CKPT, Topics.INVENTORY, Topics.JOBS);
  private final ArrayList<SpecificRecord> script;
  /** Pause before each record of the script: its arrival time after the previous one's, scaled. */
  private final long[] pauseNanos;
  private final long outOfOrdernessMs;
  private transient DataStream<SpecificRecord> paced;

  /**
   * @param records every record of the run
   * @param lagMs how far fleet.ckpt.v1 arrives behind the event time of the other topics
   * @param microsPerEventSecond real time the script takes per second of event time
   */
  LaggingCheckpointSource(List<? extends SpecificRecord> records, long lagMs, long microsPerEventSecond,
      long outOfOrdernessMs) {
    this.script = new ArrayList<>(records);
    this.script.sort(Comparator.comparingLong((SpecificRecord r) -> arrival(r, lagMs)));
    this.pauseNanos = new long[script.size()];
    for (int i = 1; i < script.size(); i++) {
      long prev = arrival(script.get(i - 1), lagMs);
      long gapMs = prev == Long.MIN_VALUE ? 0 : arrival(script.get(i), lagMs) - prev;
      pauseNanos[i] = gapMs * microsPerEventSecond; // ms * (us per s) = ns
    }
    this.outOfOrdernessMs = outOfOrdernessMs;
  }

  private static long arrival(SpecificRecord r, long lagMs) {
    String topic = OutputRouting.topicOf(r);
    if (topic.equals(Topics.INVENTORY) || topic.equals(Topics.JOBS)) {
      return Long.MIN_VALUE; // the topology is there first
    }
    return Records.ts(r) + (topic.equals(Topics.CKPT) ? lagMs : 0);
  }

  @Override
  public DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> ignored) {
    if (paced == null) {
      List<SpecificRecord> rs = script;
      long[] pauses = pauseNanos;
      paced = env.fromSequence(0, rs.size() - 1).setParallelism(1).uid("paced-sequence")
          .map(i -> {
            LockSupport.parkNanos(pauses[(int) (long) i]);
            return rs.get((int) (long) i);
          })
          .returns(AvroTypeInfo.anyRecord()).setParallelism(1).name("paced").uid("paced");
    }
    String name = topic.name();
    long ooo = outOfOrdernessMs;
    boolean sparse = SPARSE.contains(name);
    boolean empty = script.stream().noneMatch(r -> OutputRouting.topicOf(r).equals(name));
    return paced.filter(r -> OutputRouting.topicOf(r).equals(name)).setParallelism(1)
        .name("paced-" + name).uid("paced-" + name)
        .map(r -> r).returns(AvroTypeInfo.anyOf(topic.valueClass(), DeadLetter.class)).setParallelism(1)
        .name("paced-type-" + name).uid("paced-type-" + name)
        .assignTimestampsAndWatermarks(WatermarkStrategy.<SpecificRecord>forGenerator(ctx -> new Punctuated(ooo, sparse, empty))
            .withTimestampAssigner((r, previous) -> Records.ts(r)))
        .setParallelism(1).name("paced-watermarks-" + name).uid("paced-watermarks-" + name);
  }

  @Override
  public boolean bounded() {
    return true;
  }

  /** The watermark follows each record; a sparse topic goes idle right after it. */
  private static final class Punctuated implements WatermarkGenerator<SpecificRecord> {
    private final long ooo;
    private final boolean sparse;
    private final boolean empty;
    private long max = Long.MIN_VALUE;

    Punctuated(long ooo, boolean sparse, boolean empty) {
      this.ooo = ooo;
      this.sparse = sparse;
      this.empty = empty;
    }

    @Override
    public void onEvent(SpecificRecord r, long ts, WatermarkOutput out) {
      max = Math.max(max, ts);
      out.emitWatermark(new org.apache.flink.api.common.eventtime.Watermark(max - ooo - 1));
      if (sparse) {
        out.markIdle();
      }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput out) {
      if (empty) {
        out.markIdle();
      }
    }
  }
}
