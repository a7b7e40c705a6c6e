package io.fleetscope.flink.ckpt;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What fleet.ckpt.v1 has shown of one cluster as its events reached the analytic, before the
 * event-time stages ordered them: per reporting node the newest event time (the clock the
 * checkpoint stream vouches for), and the finish times of completed or failed checkpoints not yet
 * processed in event time.
 *
 * <p>The clock is kept per node because a node's events travel in order (one Kafka partition, one
 * source split), while two nodes' partitions may be read seconds apart: another node's later event
 * says nothing about whether this node's completion is still on its way.
 *
 * <p>In a bounded run every event reaches it before any event-time timer fires, so it then holds the
 * whole input; in a live run it holds what has arrived. {@link CheckpointDeadline} reads both.
 */
public final class CheckpointStreamClock implements Serializable {
  private static final long serialVersionUID = 1L;
  private long newestTs = Long.MIN_VALUE;
  /** node -> newest event time seen from it. */
  private final HashMap<String, Long> newestByNode = new HashMap<>();
  /** job -> step -> finish time. */
  private final HashMap<String, TreeMap<Long, Long>> finished = new HashMap<>();

  /** A checkpoint event (started, completed or failed) reached the analytic. */
  public void seen(CkptInput i) {
    newestTs = Math.max(newestTs, i.ts);
    if (i.node != null) {
      newestByNode.merge(i.node, i.ts, Math::max);
    }
    if (!"started".equals(i.status)) {
      long finish = i.finishedTs != null ? i.finishedTs : i.ts;
      finished.computeIfAbsent(i.job, j -> new TreeMap<>()).merge(i.step, finish, Math::min);
    }
  }

  /** Newest event time of fleet.ckpt.v1 seen for the cluster (Long.MIN_VALUE before the first). */
  public long newestTs() {
    return newestTs;
  }

  /** Newest event time of fleet.ckpt.v1 seen from {@code node} (Long.MIN_VALUE when none or unknown). */
  public long newestTsOf(String node) {
    Long t = node == null ? null : newestByNode.get(node);
    return t == null ? Long.MIN_VALUE : t;
  }

  /** Finish time of a step whose completion or failure has been seen, or null. */
  public Long finishSeen(String job, long step) {
    TreeMap<Long, Long> m = finished.get(job);
    return m == null ? null : m.get(step);
  }

  /** The step's completion was processed in event time: its arrival no longer needs remembering. */
  public void processed(String job, long step) {
    TreeMap<Long, Long> m = finished.get(job);
    if (m != null && m.remove(step) != null && m.isEmpty()) {
      finished.remove(job);
    }
  }

  /**
   * Forgets finishes older than {@code horizonMs} before the newest event (duplicates, dead-lettered
   * events) and nodes silent for that long.
   */
  public void evict(long horizonMs) {
    long keepFrom = newestTs - horizonMs;
    newestByNode.values().removeIf(t -> t < keepFrom);
    for (var it = finished.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, TreeMap<Long, Long>> e = it.next();
      e.getValue().values().removeIf(f -> f < keepFrom);
      if (e.getValue().isEmpty()) {
        it.remove();
      }
    }
  }

  /** Steps remembered (for tests and metrics). */
  public int pendingFinishes() {
    return finished.values().stream().mapToInt(Map::size).sum();
  }
}
