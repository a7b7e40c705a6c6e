package io.fleetscope.flink.core;

import java.io.Serializable;

/**
 * Section {@code pipeline}: event time, lateness and validation shared by every job. Documented in
 * analytics-defaults.yaml.
 */
public record PipelineConfig(
    long outOfOrdernessMs,
    long idlenessMs,
    long allowedLatenessMs,
    long maxFutureMs,
    long minValidTsMs,
    int parallelism,
    long checkpointIntervalMs)
    implements Serializable {
  public PipelineConfig {
    Checks.nonNegative("pipeline.out_of_orderness_ms", outOfOrdernessMs);
    Checks.positive("pipeline.idleness_ms", idlenessMs);
    Checks.nonNegative("pipeline.allowed_lateness_ms", allowedLatenessMs);
    Checks.positive("pipeline.max_future_ms", maxFutureMs);
    Checks.nonNegative("pipeline.min_valid_ts_ms", minValidTsMs);
    Checks.positive("pipeline.parallelism", parallelism);
    Checks.positive("pipeline.checkpoint_interval_ms", checkpointIntervalMs);
  }
}
