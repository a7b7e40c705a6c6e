package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.DeadLetters;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Checkpoint events that cannot be right go to fleet.dlq.v1 with the reason (side output
 * {@link #REJECTED}): an unknown status, a finish before the start, a finished event without a
 * finish time and no ts after the start.
 */
public final class CheckpointSanity extends ProcessFunction<CheckpointEvent, CheckpointEvent> {
  private static final long serialVersionUID = 1L;
  public static final OutputTag<DeadLetter> REJECTED = new OutputTag<>("ckpt-rejected", AvroTypeInfo.forClass(DeadLetter.class));
  private static final Set<String> STATUSES = Set.of("started", "completed", "failed");
  private final WallClock clock;

  public CheckpointSanity(WallClock clock) {
    this.clock = clock;
  }

  /** The reason the event is impossible, or null when it is fine. */
  public static String check(CheckpointEvent e) {
    String status = e.getStatus() == null ? "" : e.getStatus().toLowerCase(Locale.ROOT);
    if (!STATUSES.contains(status)) {
      return "unknown checkpoint status '" + e.getStatus() + "' (expected started, completed or failed)";
    }
    if (e.getFinishedTs() != null && e.getFinishedTs() < e.getStartedTs()) {
      return "checkpoint finished_ts=" + e.getFinishedTs() + " before started_ts=" + e.getStartedTs();
    }
    if (!status.equals("started") && e.getFinishedTs() == null && e.getTs() < e.getStartedTs()) {
      return "checkpoint " + status + " without finished_ts and ts=" + e.getTs() + " before started_ts=" + e.getStartedTs();
    }
    return null;
  }

  @Override
  public void processElement(CheckpointEvent e, Context ctx, Collector<CheckpointEvent> out) {
    String reason = check(e);
    if (reason == null) {
      out.collect(e);
    } else {
      ctx.output(REJECTED, DeadLetters.rejected(Topics.CKPT, e, reason, clock.now()));
    }
  }
}
