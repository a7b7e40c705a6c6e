package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.AlertStatus;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Firing/resolved state of the anomalies of one key (kept inside an analytic's keyed state).
 * {@link #update} returns a record only on a transition: "firing" once when a condition starts,
 * "resolved" once when it clears; a condition that stays true or false emits nothing.
 */
public final class AlertTracker implements Serializable {
  private static final long serialVersionUID = 1L;

  /** identity (labels without context labels) -> the firing draft and when it started. */
  private final HashMap<String, Active> active = new HashMap<>();

  private record Active(AnomalyFactory.Draft draft, long startsAt) implements Serializable {}

  /**
   * @param draft labels/annotations of the condition (identity = its labels)
   * @param condition whether the condition holds at {@code ts}
   * @return the transition record, or null when the state did not change
   */
  public Anomaly update(AnomalyFactory.Draft draft, boolean condition, long ts) {
    String fp = draft.identity();
    Active a = active.get(fp);
    if (condition && a == null) {
      active.put(fp, new Active(draft, ts));
      return draft.build(AlertStatus.FIRING, ts, ts);
    }
    if (!condition && a != null) {
      active.remove(fp);
      return draft.withLabelsOf(a.draft()).build(AlertStatus.RESOLVED, endOf(a, ts), a.startsAt());
    }
    return null;
  }

  /**
   * Like {@link #update(AnomalyFactory.Draft, boolean, long)}, but the annotations are written by
   * {@code describe} only when the state changes: an analytic evaluated every window then pays for
   * its text only on a transition. {@code labels} must already carry every label.
   */
  public Anomaly update(AnomalyFactory.Draft labels, boolean condition, long ts,
      java.util.function.Consumer<AnomalyFactory.Draft> describe) {
    boolean firing = active.containsKey(labels.identity());
    if (condition == firing) {
      return null;
    }
    describe.accept(labels);
    return update(labels, condition, ts);
  }

  /**
   * Like {@link #update(AnomalyFactory.Draft, boolean, long, java.util.function.Consumer)}, and the
   * labels are built only when they can matter: while the condition holds or while some alert of
   * this tracker fires. A healthy key (nothing firing, condition false) then costs no draft at all.
   */
  public Anomaly update(java.util.function.Supplier<AnomalyFactory.Draft> labels, boolean condition, long ts,
      java.util.function.Consumer<AnomalyFactory.Draft> describe) {
    if (!condition && active.isEmpty()) {
      return null;
    }
    return update(labels.get(), condition, ts, describe);
  }

  /** Fires {@code draft} if not firing yet (an event, e.g. an XID); returns null when already firing. */
  public Anomaly fire(AnomalyFactory.Draft draft, long ts) {
    return update(draft, true, ts);
  }

  /**
   * Resolves every firing anomaly with this alertname whose identity is not in {@code keep}:
   * for analytics that re-evaluate a whole set of conditions each tick.
   */
  public List<Anomaly> resolveAllExcept(String alertname, java.util.Set<String> keep, long ts) {
    List<Anomaly> out = new ArrayList<>();
    for (Map.Entry<String, Active> e : new ArrayList<>(active.entrySet())) {
      if (e.getValue().draft().alertname().equals(alertname) && !keep.contains(e.getKey())) {
        active.remove(e.getKey());
        out.add(e.getValue().draft().build(AlertStatus.RESOLVED, endOf(e.getValue(), ts), e.getValue().startsAt()));
      }
    }
    return out;
  }

  /**
   * When a resolve ends: at {@code ts}, but never before the alert started. An event that clears
   * the condition can carry an earlier time than the firing when it reaches the analytic after the
   * firing did (e.g. a checkpoint's finish behind a deadline that a watermark of other inputs had
   * already passed); the record's ends_at must still not precede its starts_at, or the correlator
   * rejects the resolve and the alert stays open.
   */
  private static long endOf(Active a, long ts) {
    return Math.max(ts, a.startsAt());
  }

  public boolean isFiring(AnomalyFactory.Draft draft) {
    return active.containsKey(draft.identity());
  }

  public int firingCount() {
    return active.size();
  }
}
