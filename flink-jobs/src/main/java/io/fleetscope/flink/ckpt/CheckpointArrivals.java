package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Every checkpoint event as it reaches the analytic, for {@link CheckpointStreamClock}: a
 * {@link CkptInput#SEEN} copy that bypasses the event-time first stage. A checkpoint stage keyed by
 * job hands a tick on only when fleet.ckpt.v1's own watermark has passed it, i.e. when a later
 * checkpoint event arrives; its completion can thus reach the cluster stage long after the other
 * inputs' watermark passed its deadline. The copies carry the time {@link Long#MIN_VALUE}, so the
 * cluster stage takes them at its next watermark step, before any deadline due then; their stream
 * declares itself idle and never holds the watermark back.
 */
public final class CheckpointArrivals {
  private CheckpointArrivals() {}

  /** The SEEN copies of {@code sane}, operators {@code NAME-arrivals} and {@code NAME-arrivals-time}. */
  public static DataStream<CkptInput> of(DataStream<CheckpointEvent> sane, String name) {
    return sane.map(CheckpointArrivals::seen, TypeInformation.of(CkptInput.class))
        .name(name + "-arrivals").uid(name + "-arrivals")
        .assignTimestampsAndWatermarks(WatermarkStrategy.<CkptInput>forGenerator(ctx -> new Idle())
            .withTimestampAssigner((i, previous) -> Long.MIN_VALUE))
        .name(name + "-arrivals-time").uid(name + "-arrivals-time");
  }

  static CkptInput seen(CheckpointEvent e) {
    return CkptInput.of(CkptInput.SEEN, e);
  }

  /** No watermark of its own: the stream is idle, so only the checkpoint and XID stages set the time. */
  static final class Idle implements WatermarkGenerator<CkptInput> {
    @Override
    public void onEvent(CkptInput event, long eventTimestamp, WatermarkOutput output) {
      output.markIdle();
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
      output.markIdle();
    }
  }
}
