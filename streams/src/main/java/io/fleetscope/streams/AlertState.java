package io.fleetscope.streams;

import java.util.Map;

/**
 * The correlator's view of one anomaly (by fingerprint), kept in the {@code alert-lifecycle} store.
 *
 * @param phase PENDING (firing, not yet paged: min firing duration not reached), FIRING (paged),
 *     RESOLVING (a resolution arrived; held for the flap hold-down before it is passed on), RESOLVED
 *     (ended; remembered for the replay horizon so that history re-emitted after a recovery of the
 *     analytics is recognised)
 * @param firstSeenMs wall-clock time the firing record arrived (start of the min firing duration)
 * @param resolveAtMs wall-clock time a RESOLVING anomaly becomes resolved, or a RESOLVED one is forgotten; else 0
 * @param endsAt the end time the resolution carried (or the resolution record's time)
 * @param flaps how many resolutions were suppressed because it fired again within the hold-down
 */
public record AlertState(
    String fingerprint,
    Phase phase,
    Map<String, String> labels,
    Map<String, String> annotations,
    long startsAt,
    Long endsAt,
    Double value,
    String source,
    long firstSeenMs,
    long resolveAtMs,
    int flaps) {

  /** Lifecycle phase. */
  public enum Phase { PENDING, FIRING, RESOLVING, RESOLVED }

  AlertState withPhase(Phase p, long resolveAt, Long ends, int flapCount) {
    return new AlertState(fingerprint, p, labels, annotations, startsAt, ends, value, source, firstSeenMs, resolveAt, flapCount);
  }

  /** Wall-clock time at which a tick must look at this state, or 0 when none. */
  long dueAtMs(long minFiringMs) {
    return switch (phase) {
      case PENDING -> firstSeenMs + minFiringMs;
      case RESOLVING, RESOLVED -> resolveAtMs;
      case FIRING -> 0L;
    };
  }
}
