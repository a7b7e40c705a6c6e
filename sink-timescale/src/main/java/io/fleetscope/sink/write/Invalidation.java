package io.fleetscope.sink.write;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A time range a batch wrote into a table with rollups, logged in rollup_invalidations so the
 * maintainer recomputes the buckets it touches; {@code node} null means every node's rows in the
 * range, else that node's only.
 *
 * <p>A batch is mostly rows of the last seconds plus, now and then, a straggler minutes late (the
 * agents' spool, a slow node). One range from the oldest row to the newest would make the
 * maintainer recompute every GPU's buckets of those minutes for a handful of rows (at 16,000 GPUs,
 * 3-5 whole minutes per refresh instead of 1); so the rows more than {@link #STRAGGLER_AGE_MS}
 * older than the batch's newest get ranges of their own, per node, when there are few of them.
 *
 * @param fromMs oldest row's event time, epoch ms
 * @param toMs newest row's event time, epoch ms (inclusive)
 */
public record Invalidation(long fromMs, long toMs, String node) {
  /** Rows this much older than the newest of their batch are stragglers. */
  public static final long STRAGGLER_AGE_MS = 60_000;
  /** More stragglers than this (a backfill, a replay) are logged as one range over every node. */
  public static final int MAX_STRAGGLERS = 64;

  /**
   * The ranges of one batch: {@code ts[i]} and {@code nodes[i]} of each row ({@code nodes} null, or a
   * null entry, when rows have no node to narrow by).
   */
  public static List<Invalidation> of(long[] ts, String[] nodes) {
    if (ts.length == 0) {
      return List.of();
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long t : ts) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
    if (nodes == null) {
      return List.of(new Invalidation(min, max, null));
    }
    long cut = max - STRAGGLER_AGE_MS;
    int stragglers = 0;
    boolean nodeless = false;
    long bulkMin = Long.MAX_VALUE;
    for (int i = 0; i < ts.length; i++) {
      if (ts[i] < cut) {
        stragglers++;
        nodeless |= nodes[i] == null;
      } else {
        bulkMin = Math.min(bulkMin, ts[i]);
      }
    }
    if (stragglers == 0 || stragglers > MAX_STRAGGLERS || nodeless) {
      return List.of(new Invalidation(min, max, null));
    }
    TreeMap<String, long[]> byNode = new TreeMap<>();
    for (int i = 0; i < ts.length; i++) {
      if (ts[i] < cut) {
        long[] r = byNode.computeIfAbsent(nodes[i], k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
        r[0] = Math.min(r[0], ts[i]);
        r[1] = Math.max(r[1], ts[i]);
      }
    }
    List<Invalidation> out = new ArrayList<>(byNode.size() + 1);
    out.add(new Invalidation(bulkMin, max, null));
    byNode.forEach((node, r) -> out.add(new Invalidation(r[0], r[1], node)));
    return out;
  }
}
