package io.fleetscope.flink.ckpt;

/**
 * When a started checkpoint that has not finished counts as overdue, judged on a clock that
 * fleet.ckpt.v1 itself vouches for rather than on the watermark of the analytic's other inputs.
 *
 * <p>{@code deadline} is {@code started + slo * slow_factor}; {@code checkAt} is the end of the tick
 * after the deadline's tick (plus the allowed lateness), so that a checkpoint finishing just in time
 * has been seen by then. At event time {@code now >= checkAt} the checkpoint is:
 * <ul>
 *   <li>{@link Verdict#IN_TIME} when its completion (or failure) has reached the analytic with a
 *       finish at or before {@code checkAt}: the completion decides, however late it is processed;
 *   <li>{@link Verdict#OVERDUE} (as of {@code checkAt}) when its completion has reached the analytic
 *       with a finish after {@code checkAt}, or when the checkpoint stream has itself shown an event
 *       time at or past {@code checkAt} without it, from the node that reported the start (a node's
 *       events arrive in order; another node's may be read ahead of it);
 *   <li>{@link Verdict#OVERDUE_BY_FALLBACK} (as of {@code fallbackAt = checkAt + overdue_grace_s})
 *       when the checkpoint stream has shown nothing that late and the event time of the other
 *       inputs has reached {@code fallbackAt}: a cluster whose only job hangs;
 *   <li>{@link Verdict#UNDECIDED} otherwise (before {@code checkAt}, or while the checkpoint stream
 *       may merely lag).
 * </ul>
 */
public record CheckpointDeadline(long deadline, long checkAt, long fallbackAt) {

  public enum Verdict { UNDECIDED, IN_TIME, OVERDUE, OVERDUE_BY_FALLBACK }

  public static CheckpointDeadline of(CheckpointSloSettings cfg, long startedTs, String tier, long latenessMs) {
    long deadline = deadlineOf(cfg, startedTs, tier);
    long tickMs = cfg.tickMs();
    long tickEnd = Math.floorDiv(deadline, tickMs) * tickMs + tickMs;
    return withCheckAt(cfg, startedTs, tier, tickEnd + tickMs - 1 + latenessMs);
  }

  /** The deadline of a checkpoint whose check time was computed before (kept in state). */
  static CheckpointDeadline withCheckAt(CheckpointSloSettings cfg, long startedTs, String tier, long checkAt) {
    return new CheckpointDeadline(deadlineOf(cfg, startedTs, tier), checkAt, checkAt + cfg.overdueGraceS() * 1000);
  }

  private static long deadlineOf(CheckpointSloSettings cfg, long startedTs, String tier) {
    return startedTs + Math.round(cfg.sloSecondsFor(tier) * cfg.slowFactor() * 1000);
  }

  /**
   * @param now event time of the evaluation (a timer of the analytic)
   * @param finishSeen finish time of the checkpoint's completion or failure if it has reached the
   *     analytic, else null
   * @param streamClock newest event time fleet.ckpt.v1 has shown from the node that reported the start
   */
  public Verdict judge(long now, Long finishSeen, long streamClock) {
    if (now < checkAt) {
      return Verdict.UNDECIDED;
    }
    if (finishSeen != null) {
      return finishSeen <= checkAt ? Verdict.IN_TIME : Verdict.OVERDUE;
    }
    if (streamClock >= checkAt) {
      return Verdict.OVERDUE;
    }
    return now >= fallbackAt ? Verdict.OVERDUE_BY_FALLBACK : Verdict.UNDECIDED;
  }

  /** The event time as of which a verdict holds (the anomaly's time): checkAt, or fallbackAt for the fallback. */
  public long overdueSince(Verdict v) {
    return v == Verdict.OVERDUE_BY_FALLBACK ? fallbackAt : checkAt;
  }
}
