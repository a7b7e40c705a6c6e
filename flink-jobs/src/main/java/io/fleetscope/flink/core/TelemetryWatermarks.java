package io.fleetscope.flink.core;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.io.WallClock;
import java.time.Duration;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * The watermark of a raw topic: bounded out-of-orderness on {@code ts}, with idleness, built by the
 * source itself, so that a partitioned source (Kafka) keeps one watermark per partition and hands
 * on their minimum. Generating it after the source instead, on the records of all of a reader's
 * partitions mixed, let the partition read furthest ahead set the watermark: when a backlog was read
 * (after an outage, a restart, or while the analytics caught up) the consumer drains one partition's
 * fetch after another, the partitions drift seconds apart, and the records of the ones behind were
 * dead-lettered as late although none of them was out of order.
 *
 * <p>Records that {@link ValidateRecords} will reject for their time (before
 * {@code pipeline.min_valid_ts_ms}, or more than {@code pipeline.max_future_ms} ahead of the wall
 * clock) and dead letters from the decoder do not move the watermark, as they did not when the
 * watermark followed validation.
 */
public final class TelemetryWatermarks implements WatermarkGenerator<SpecificRecord> {
  private final long outOfOrdernessMs;
  private final RecordValidator validator;
  private final WallClock clock;
  private long maxTs;

  public TelemetryWatermarks(long outOfOrdernessMs, RecordValidator validator, WallClock clock) {
    this.outOfOrdernessMs = outOfOrdernessMs;
    this.validator = validator;
    this.clock = clock;
    this.maxTs = Long.MIN_VALUE + outOfOrdernessMs + 1;
  }

  /** The strategy of a raw topic: timestamps from {@code ts}, this generator, the topic's idleness. */
  public static WatermarkStrategy<SpecificRecord> strategy(PipelineConfig p, String topic, RecordValidator validator,
      WallClock clock) {
    long ooo = p.outOfOrdernessMs();
    return WatermarkStrategy.<SpecificRecord>forGenerator(ctx -> new TelemetryWatermarks(ooo, validator, clock))
        .withTimestampAssigner((r, previous) -> r instanceof DeadLetter ? Long.MIN_VALUE : Records.ts(r))
        .withIdleness(Duration.ofMillis(p.idlenessMsOf(topic)));
  }

  @Override
  public void onEvent(SpecificRecord r, long ts, WatermarkOutput output) {
    if (r instanceof DeadLetter || !validator.tsInRange(ts, clock.now())) {
      return; // rejected by validation: must not hold or push the watermark
    }
    maxTs = Math.max(maxTs, ts);
  }

  @Override
  public void onPeriodicEmit(WatermarkOutput output) {
    output.emitWatermark(new Watermark(maxTs - outOfOrdernessMs - 1));
  }
}
