package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.streams.AlertState.Phase;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Pure state machine of one anomaly: min firing duration before it pages, the flap hold-down (a
 * resolution followed by a new firing within the hold-down never reaches on-call), and replay
 * absorption: the analytics deliver at least once, so after a recovery they re-emit what they had
 * emitted since their last checkpoint. An ended episode is remembered for the replay horizon, and a
 * record of an older episode than the one in hand (its {@code starts_at} before the current
 * episode's, or a firing that started before the remembered episode ended) is history: it changes
 * nothing and pages nobody. Times are wall-clock milliseconds supplied by the caller.
 */
public final class AlertLifecycle {

  /** The next state ({@code null}: forget the anomaly) and the effective change to pass on ({@code null}: none). */
  public record Step(AlertState next, Anomaly emit) {}

  private final long minFiringMs;
  private final long flapHoldMs;
  private final long replayHorizonMs;

  public AlertLifecycle(Duration minFiring, Duration flapHold, Duration replayHorizon) {
    this.minFiringMs = minFiring.toMillis();
    this.flapHoldMs = flapHold.toMillis();
    this.replayHorizonMs = replayHorizon.toMillis();
  }

  /** Whether {@code a} belongs to an episode before the one {@code cur} holds (a replay of history). */
  static boolean isHistory(AlertState cur, Anomaly a, boolean firing) {
    if (cur == null) {
      return false;
    }
    if (a.getStartsAt() < cur.startsAt()) {
      return true;
    }
    return cur.phase() == Phase.RESOLVED && (!firing || (cur.endsAt() != null && a.getStartsAt() <= cur.endsAt()));
  }

  public long minFiringMs() {
    return minFiringMs;
  }

  public Step onAnomaly(AlertState cur, Anomaly a, long recordTs, long now) {
    boolean firing = AlertStatus.isFiring(a.getStatus());
    if (isHistory(cur, a, firing)) {
      return new Step(cur, null);
    }
    if (cur != null && cur.phase() == Phase.RESOLVED) {
      cur = null; // a new episode after an ended one
    }
    if (firing) {
      if (cur == null) {
        AlertState s = fresh(a, now);
        return minFiringMs == 0 ? new Step(s.withPhase(Phase.FIRING, 0, null, 0), firingOf(s)) : new Step(s, null);
      }
      AlertState updated = new AlertState(cur.fingerprint(), cur.phase(), a.getLabels(), a.getAnnotations(), cur.startsAt(),
          null, a.getValue(), a.getSource(), cur.firstSeenMs(), cur.resolveAtMs(), cur.flaps());
      boolean annotationsChanged = !Objects.equals(cur.annotations(), a.getAnnotations());
      switch (cur.phase()) {
        case PENDING:
          if (now - cur.firstSeenMs() >= minFiringMs) {
            AlertState s = updated.withPhase(Phase.FIRING, 0, null, cur.flaps());
            return new Step(s, firingOf(s));
          }
          return new Step(updated, null);
        case RESOLVING: {
          AlertState s = updated.withPhase(Phase.FIRING, 0, null, cur.flaps() + 1);
          return new Step(s, annotationsChanged ? firingOf(s) : null);
        }
        default: {
          return new Step(updated, annotationsChanged ? firingOf(updated) : null);
        }
      }
    }
    // resolved
    if (cur == null) {
      return new Step(null, null);
    }
    long endsAt = a.getEndsAt() != null ? a.getEndsAt() : recordTs;
    switch (cur.phase()) {
      case PENDING:
        return new Step(ended(cur, endsAt, now), null); // never paged: nothing to resolve
      case FIRING:
        if (flapHoldMs == 0) {
          return new Step(ended(cur, endsAt, now), resolvedOf(cur, endsAt));
        }
        return new Step(cur.withPhase(Phase.RESOLVING, now + flapHoldMs, endsAt, cur.flaps()), null);
      default:
        return new Step(cur, null); // already resolving: keep the first resolution time
    }
  }

  /** The remembered end of an episode (null: forget it at once, when there is no replay horizon). */
  private AlertState ended(AlertState cur, long endsAt, long now) {
    if (replayHorizonMs == 0) {
      return null;
    }
    return cur.withPhase(Phase.RESOLVED, now + replayHorizonMs, Math.max(endsAt, cur.startsAt()), cur.flaps());
  }

  /** What a wall-clock tick at {@code now} does to {@code cur}. */
  public Step onTick(AlertState cur, long now) {
    if (cur.phase() == Phase.PENDING && now - cur.firstSeenMs() >= minFiringMs) {
      AlertState s = cur.withPhase(Phase.FIRING, 0, null, cur.flaps());
      return new Step(s, firingOf(s));
    }
    if (cur.phase() == Phase.RESOLVING && now >= cur.resolveAtMs()) {
      long endsAt = cur.endsAt() == null ? now : cur.endsAt();
      return new Step(ended(cur, endsAt, now), resolvedOf(cur, endsAt));
    }
    if (cur.phase() == Phase.RESOLVED && now >= cur.resolveAtMs()) {
      return new Step(null, null);
    }
    return new Step(cur, null);
  }

  private static AlertState fresh(Anomaly a, long now) {
    return new AlertState(a.getFingerprint(), Phase.PENDING, a.getLabels(), a.getAnnotations(), a.getStartsAt(), null,
        a.getValue(), a.getSource(), now, 0, 0);
  }

  static Anomaly firingOf(AlertState s) {
    return build(s, AlertStatus.FIRING, null);
  }

  static Anomaly resolvedOf(AlertState s, long endsAt) {
    return build(s, AlertStatus.RESOLVED, Math.max(endsAt, s.startsAt()));
  }

  private static Anomaly build(AlertState s, String status, Long endsAt) {
    return Anomaly.newBuilder()
        .setTs(endsAt != null ? endsAt : s.startsAt())
        .setFingerprint(s.fingerprint())
        .setStatus(status)
        .setLabels(Map.copyOf(s.labels()))
        .setAnnotations(s.annotations() == null ? Map.of() : Map.copyOf(s.annotations()))
        .setStartsAt(s.startsAt())
        .setEndsAt(endsAt)
        .setValue(s.value())
        .setSource(s.source())
        .build();
  }
}
