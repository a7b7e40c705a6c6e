package io.fleetscope.flink.ckpt;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The interruption rate the fleet has shown: job-interrupting events (XIDs of the configured
 * codes), one per node per dedup period, over a sliding window, relative to the GPUs observed.
 *
 * <p>The observed MTBF of one GPU is {@code fleetGpus * observedSeconds / interruptions}; until
 * the configured minimum of interruptions has been seen, the configured per-GPU MTBF is used.
 */
public final class InterruptionRate implements Serializable {
  private final long windowMs;
  private final long dedupMs;
  private final int minObserved;
  private final double configuredMtbfPerGpuS;
  private final Deque<Long> interruptions = new ArrayDeque<>();
  private final Map<String, Long> lastPerNode = new HashMap<>();
  private long firstTs = Long.MAX_VALUE;
  private long lastTs = Long.MIN_VALUE;

  public InterruptionRate(CheckpointSloSettings cfg) {
    this.windowMs = (long) (cfg.interruptionWindowHours() * 3_600_000L);
    this.dedupMs = cfg.interruptionDedupS() * 1000;
    this.minObserved = cfg.minObservedInterruptions();
    this.configuredMtbfPerGpuS = cfg.mtbfPerGpuHours() * 3600.0;
  }

  /** Notes that the fleet was observed at this event time (any record). */
  public void observe(long ts) {
    firstTs = Math.min(firstTs, ts);
    lastTs = Math.max(lastTs, ts);
    while (!interruptions.isEmpty() && interruptions.peekFirst() <= lastTs - windowMs) {
      interruptions.removeFirst();
    }
  }

  /** Records an interrupting event on a node; returns false when it was deduplicated. */
  public boolean interruption(String node, long ts) {
    observe(ts);
    Long prev = lastPerNode.get(node);
    if (prev != null && Math.abs(ts - prev) < dedupMs) {
      return false;
    }
    lastPerNode.put(node, ts);
    // keep the deque sorted; interruptions are rare, linear insertion is fine
    Deque<Long> tmp = new ArrayDeque<>();
    while (!interruptions.isEmpty() && interruptions.peekLast() > ts) {
      tmp.addFirst(interruptions.removeLast());
    }
    interruptions.addLast(ts);
    interruptions.addAll(tmp);
    lastPerNode.entrySet().removeIf(e -> e.getValue() < lastTs - Math.max(dedupMs, 1) - windowMs);
    return true;
  }

  public int count() {
    return interruptions.size();
  }

  /** True when the observed rate is used instead of the configured MTBF. */
  public boolean observedRateInUse() {
    return interruptions.size() >= minObserved;
  }

  /** MTBF of one GPU, seconds: observed when enough interruptions were seen, else configured. */
  public double mtbfPerGpuS(int fleetGpus) {
    if (!observedRateInUse() || fleetGpus <= 0) {
      return configuredMtbfPerGpuS;
    }
    double observedS = Math.min(windowMs, Math.max(1, lastTs - firstTs)) / 1000.0;
    return fleetGpus * observedS / interruptions.size();
  }

  /** MTBF of a job on {@code jobGpus} GPUs, seconds (failures of independent GPUs add up). */
  public double jobMtbfS(int fleetGpus, int jobGpus) {
    if (jobGpus <= 0) {
      throw new IllegalArgumentException("job GPU count must be > 0, got " + jobGpus);
    }
    return mtbfPerGpuS(fleetGpus) / jobGpus;
  }
}
