package io.fleetscope.flink.core;

import java.io.Serializable;

/**
 * Section {@code pipeline}: event time, lateness and validation shared by every analytic. Documented in
 * analytics-defaults.yaml.
 */
public record PipelineConfig(
    long outOfOrdernessMs,
    long idlenessMs,
    long eventIdlenessMs,
    long allowedLatenessMs,
    long catchUpMs,
    long catchUpGraceMs,
    long maxFutureMs,
    long minValidTsMs,
    int parallelism,
    int maxParallelism,
    long checkpointIntervalMs,
    long sliceMs,
    boolean fastPathOwnSources,
    long inventoryHoldMs)
    implements Serializable {
  /** Topics of events (silent most of the time), whose partitions use {@link #eventIdlenessMs}. */
  public static final java.util.Set<String> EVENT_TOPICS =
      java.util.Set.of(io.fleetscope.schemas.Topics.GPU_XID, io.fleetscope.schemas.Topics.CKPT);

  /** How long a partition of {@code topic} may be silent before it stops holding the watermark back. */
  public long idlenessMsOf(String topic) {
    return EVENT_TOPICS.contains(topic) ? eventIdlenessMs : idlenessMs;
  }

  public PipelineConfig {
    Checks.nonNegative("pipeline.out_of_orderness_ms", outOfOrdernessMs);
    Checks.positive("pipeline.idleness_ms", idlenessMs);
    Checks.positive("pipeline.event_idleness_ms", eventIdlenessMs);
    Checks.nonNegative("pipeline.allowed_lateness_ms", allowedLatenessMs);
    Checks.nonNegative("pipeline.catch_up_ms", catchUpMs);
    Checks.positive("pipeline.catch_up_grace_ms", catchUpGraceMs);
    Checks.positive("pipeline.max_future_ms", maxFutureMs);
    Checks.nonNegative("pipeline.min_valid_ts_ms", minValidTsMs);
    Checks.positive("pipeline.parallelism", parallelism);
    Checks.positive("pipeline.max_parallelism", maxParallelism);
    if (maxParallelism < parallelism || maxParallelism > 32768) {
      throw new IllegalArgumentException("pipeline.max_parallelism=" + maxParallelism
          + " must be between pipeline.parallelism (" + parallelism + ") and 32768");
    }
    Checks.positive("pipeline.checkpoint_interval_ms", checkpointIntervalMs);
    Checks.positive("pipeline.slice_ms", sliceMs);
    Checks.nonNegative("pipeline.inventory_hold_ms", inventoryHoldMs);
  }
}
