package io.fleetscope.flink.core;

import java.io.Serializable;

/**
 * The own clock of a node that sends a backlog (pure; no Flink). A node whose agent spooled through
 * a broker outage sends, when the broker is back, records that the watermark has passed: the other
 * nodes moved it on meanwhile. Flink has one event-time clock per operator, not per key, so the node
 * operator keeps one per node while it catches up: the node's newest record taken, less the
 * watermark's out-of-orderness, passes the node's slices as its backlog arrives in its own order.
 *
 * <p>A record behind the watermark is taken when it is at most {@code pipeline.catch_up_ms} behind
 * it and the analytic has not evaluated its slice of this node yet (an analytic's results stay in
 * time order); else it is late, with the reason {@link #refusal} gives. The catch-up ends at the
 * flush timer, {@code out_of_orderness_ms} of watermark after the node's last backlog record.
 */
final class NodeCatchUp implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The newest ts taken while catching up (0: none yet). */
  long newest;
  /** The flush timer's time while catching up, 0 when the node is not catching up. */
  long flushAt;
  /** While catching up: the slice ends up to this have their timers. */
  long registeredTo;
  /** The end the last flush evaluated up to: slices up to it are not waited for again. */
  long flushedTo;

  /**
   * Why a record at {@code ts} (slice end {@code sliceEnd}), behind the watermark {@code watermark},
   * cannot be taken; null when it can.
   *
   * @param evaluatedTo the latest end the analytic has evaluated for this node
   */
  static String refusal(long ts, long sliceEnd, long watermark, long catchUpMs, long evaluatedTo) {
    if (catchUpMs <= 0) {
      return "catch-up off: pipeline.catch_up_ms=0";
    }
    if (watermark - ts > catchUpMs) {
      return "more than pipeline.catch_up_ms=" + catchUpMs + " behind the watermark";
    }
    if (sliceEnd <= evaluatedTo) {
      return "this node's slice ending " + sliceEnd + " was already evaluated";
    }
    return null;
  }

  /**
   * The latest slice end the node's own clock has passed: its newest record less the
   * out-of-orderness, as the watermark of a partition would be, less the allowed lateness.
   */
  long dueUpTo(long outOfOrdernessMs, long latenessMs) {
    if (newest == 0) {
      return Long.MIN_VALUE;
    }
    long nodeWatermark = newest - outOfOrdernessMs - 1;
    return nodeWatermark + 1 - latenessMs;
  }

  /**
   * The flush timer for a backlog record taken at {@code watermark}: {@code graceMs} later,
   * moved off any time a slice or tick timer may have (a timer deleted to move the flush must not
   * be one of those).
   */
  static long flushTimer(long watermark, long graceMs, long latenessMs, long[] slices, long[] ticks) {
    long at = watermark + graceMs + 1;
    while (endsSomething(at + 1 - latenessMs, slices) || endsSomething(at + 1 - latenessMs, ticks)) {
      at++;
    }
    return at;
  }

  private static boolean endsSomething(long end, long[] lengths) {
    for (long l : lengths) {
      if (l > 0 && Math.floorMod(end, l) == 0) {
        return true;
      }
    }
    return false;
  }
}
