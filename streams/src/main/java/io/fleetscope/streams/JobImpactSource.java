package io.fleetscope.streams;

import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.streams.jobs.CheckpointLookup;
import io.fleetscope.streams.jobs.JobImpacts;
import io.fleetscope.streams.jobs.JobIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * The jobs an incident touches, as the correlator sees them: the job allocations of the
 * {@code jobs} GlobalKTable (fleet.jobs.v1, keyed by node) and the last completed checkpoint of each
 * job from the {@code job-last-checkpoint} global store. The job index (node -> jobs, job -> size)
 * is rebuilt from the whole table at most once per {@code ttlMs} of wall-clock time: job sizes need
 * every node's allocations, and grouping a cluster asks for many incidents at once.
 */
final class JobImpactSource {
  private final ReadOnlyKeyValueStore<String, ?> allocations;
  private final CheckpointLookup checkpoints;
  private final long ttlMs;
  private final LongSupplier clock;
  private JobIndex index;
  private long builtAt;

  JobImpactSource(ReadOnlyKeyValueStore<String, ?> allocations, ReadOnlyKeyValueStore<String, ?> checkpoints, long ttlMs,
      LongSupplier clock) {
    this.allocations = allocations;
    this.checkpoints = (cluster, job) -> (Long) unwrap(checkpoints.get(CheckpointLookup.key(cluster, job)));
    this.ttlMs = ttlMs;
    this.clock = clock;
  }

  /** The jobs {@code radius} touches in {@code cluster} at {@code ts}, largest GPU-hours at risk first. */
  List<JobImpact> of(String cluster, BlastRadius radius, long ts) {
    if (radius == null || radius.getNodeList().isEmpty() && radius.getGpuList().isEmpty()) {
      return List.of();
    }
    return JobImpacts.of(cluster, radius, index(), checkpoints, ts);
  }

  private JobIndex index() {
    long now = clock.getAsLong();
    if (index == null || ttlMs <= 0 || now - builtAt >= ttlMs) {
      List<JobAllocations> all = new ArrayList<>();
      try (KeyValueIterator<String, ?> it = allocations.all()) {
        it.forEachRemaining(kv -> all.add((JobAllocations) unwrap(kv.value)));
      }
      index = JobIndex.of(all);
      builtAt = now;
    }
    return index;
  }

  private static Object unwrap(Object v) {
    return v instanceof ValueAndTimestamp<?> vt ? vt.value() : v;
  }
}
