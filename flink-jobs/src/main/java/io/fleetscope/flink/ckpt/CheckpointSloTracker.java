package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoint SLO state of one training job.
 *
 * <p>Each completed or failed checkpoint yields one {@link CheckpointSlo}: throughput
 * {@code bytes / duration} in GB/s, compliance with the tier's SLO (a failed checkpoint is never
 * compliant), the burn rate of the error budget over every configured window
 * ({@code (bad / total in window) / (1 - target)}), and the Young/Daly interval for the job's
 * measured cost and MTBF. A repeated completion of the same step is counted once.
 *
 * <p>Alerts: CheckpointSlow for a checkpoint slower than {@code slo * slow_factor}, or one that
 * started and is overdue ({@link #onTime}, judged by {@link CheckpointDeadline}), resolved by the next
 * checkpoint clearly within it ({@code slow_clear_fraction}); CheckpointSloBurn per window rule once
 * both its long and short burn rates are at or above the factor, resolved when one of them falls
 * below {@code factor * burn_clear_fraction}. Both hold while a value hovers at its limit.
 */
public final class CheckpointSloTracker implements Serializable {
  /**
   * The value the JVM computed for this class before it was declared: the trackers are saved in the
   * analytic's state with Java serialization, and their fields have not changed since.
   */
  private static final long serialVersionUID = 2213799582418948867L;
  private final CheckpointSloSettings cfg;
  /** finish ts -> outcomes finished then (true = compliant); kept for the longest window. */
  private final TreeMap<Long, List<Boolean>> history = new TreeMap<>();
  /** step -> finish ts of steps already counted. */
  private final Map<Long, Long> counted = new HashMap<>();
  private final double[] recentCosts;
  private int costCount;
  private boolean slowFiring;
  private final Map<String, Boolean> burnFiring = new TreeMap<>();
  private long lastTs = Long.MIN_VALUE;
  /** step -> checkpoint started but not finished yet. */
  private final TreeMap<Long, Open> open = new TreeMap<>();

  /** A checkpoint in progress. */
  record Open(long startedTs, long checkAt, String tier, long bytes, boolean overdue, String node) implements Serializable {}

  public CheckpointSloTracker(CheckpointSloSettings cfg) {
    this.cfg = cfg;
    this.recentCosts = new double[cfg.costSamples()];
  }

  /** Result of one event; {@code slo} is null for a start event or a duplicate. */
  public record Outcome(CheckpointSlo slo, List<AlertChange> changes) {}

  /**
   * @param e the event
   * @param jobMtbfS MTBF of the job in seconds, or null when its size is unknown
   */
  public Outcome onEvent(CheckpointEvent e, Double jobMtbfS) {
    String status = e.getStatus() == null ? "" : e.getStatus().toLowerCase(Locale.ROOT);
    if (!status.equals("completed") && !status.equals("failed")) {
      return new Outcome(null, List.of());
    }
    long finish = e.getFinishedTs() != null ? e.getFinishedTs() : e.getTs();
    lastTs = Math.max(lastTs, finish);
    if (counted.containsKey(e.getStep())) {
      return new Outcome(null, List.of());
    }
    counted.put(e.getStep(), finish);
    open.remove(e.getStep());

    double durationS = Math.max(0, (finish - e.getStartedTs()) / 1000.0);
    double slo = cfg.sloSecondsFor(e.getTier());
    boolean failed = status.equals("failed");
    boolean compliant = !failed && durationS <= slo;
    double throughput = durationS > 0 && !failed ? e.getBytes() / 1e9 / durationS : 0.0;
    history.computeIfAbsent(finish, k -> new ArrayList<>(1)).add(compliant);
    if (!failed && durationS > 0) {
      recentCosts[costCount % recentCosts.length] = durationS;
      costCount++;
    }
    evict(finish);

    Map<String, Double> burn = new LinkedHashMap<>();
    Map<Long, Double> byWindowS = new HashMap<>();
    for (CheckpointSloSettings.BurnWindow w : cfg.burnWindows()) {
      double lng = byWindowS.computeIfAbsent(w.longS(), s -> burnRate(finish, s));
      double sht = byWindowS.computeIfAbsent(w.shortS(), s -> burnRate(finish, s));
      burn.put(w.name() + ":long", lng);
      burn.put(w.name() + ":short", sht);
    }

    Double interval = null;
    Double cost = medianCost();
    if (cost != null && jobMtbfS != null && jobMtbfS > 0) {
      interval = round(YoungDaly.daly(cost, jobMtbfS));
    }

    CheckpointSlo rec = CheckpointSlo.newBuilder()
        .setTs(finish)
        .setCluster(e.getCluster())
        .setJob(e.getJob())
        .setStep(e.getStep())
        .setTier(e.getTier())
        .setBytes(e.getBytes())
        .setDurationS(round(durationS))
        .setThroughputGbps(round(throughput))
        .setSloSeconds(slo)
        .setCompliant(compliant)
        .setBurnRate5m(byWindowS.containsKey(300L) ? round(byWindowS.get(300L)) : null)
        .setBurnRate1h(byWindowS.containsKey(3600L) ? round(byWindowS.get(3600L)) : null)
        .setBurnRate30m(byWindowS.containsKey(1800L) ? round(byWindowS.get(1800L)) : null)
        .setBurnRate6h(byWindowS.containsKey(21600L) ? round(byWindowS.get(21600L)) : null)
        .setRecommendedIntervalS(interval)
        .build();

    List<AlertChange> changes = new ArrayList<>();
    Map<String, String> base = new LinkedHashMap<>();
    base.put("cluster", e.getCluster());
    base.put("job", e.getJob());
    base.put("tier", e.getTier());

    double limit = slo * cfg.slowFactor();
    boolean slow = failed || durationS > limit;
    boolean clear = !failed && durationS <= limit * cfg.slowClearFraction();
    if (slowFiring ? clear : slow) {
      slowFiring = slow;
      String what = failed ? "failed after " : "took ";
      changes.add(new AlertChange("CheckpointSlow", "warning", slow, round(durationS), new LinkedHashMap<>(base),
          "Checkpoint " + (slow ? "slow" : "back within SLO") + " for job " + e.getJob(),
          String.format(Locale.ROOT, "step %d %s%.1f s for %.1f GB (%.2f GB/s) to %s; SLO %.0f s",
              e.getStep(), failed ? what : what, durationS, e.getBytes() / 1e9, throughput, e.getTier(), slo)));
    }
    for (CheckpointSloSettings.BurnWindow w : cfg.burnWindows()) {
      double lng = burn.get(w.name() + ":long");
      double sht = burn.get(w.name() + ":short");
      boolean was = burnFiring.getOrDefault(w.name(), false);
      double clearBelow = w.factor() * cfg.burnClearFraction();
      boolean firing = was ? lng >= clearBelow && sht >= clearBelow : lng >= w.factor() && sht >= w.factor();
      if (firing != was) {
        burnFiring.put(w.name(), firing);
        Map<String, String> l = new LinkedHashMap<>(base);
        l.remove("tier");
        l.put("window", w.name());
        changes.add(new AlertChange("CheckpointSloBurn", w.severity(), firing, round(Math.min(lng, sht)), l,
            "Checkpoint SLO error budget burning " + (firing ? "fast" : "normally again") + " for job " + e.getJob(),
            String.format(Locale.ROOT, "burn rate %.1fx over %ds and %.1fx over %ds (threshold %.1fx, target %.2f%%)",
                lng, w.longS(), sht, w.shortS(), w.factor(), cfg.target() * 100)));
      }
    }
    return new Outcome(rec, changes);
  }

  /**
   * A checkpoint started: remembers it and returns the event time from which it can be judged
   * overdue ({@link CheckpointDeadline#checkAt}), or -1 when it is already finished or known.
   *
   * @param latenessMs the pipeline's allowed lateness
   */
  public long onStart(CheckpointEvent e, long latenessMs) {
    lastTs = Math.max(lastTs, e.getStartedTs());
    if (counted.containsKey(e.getStep()) || open.containsKey(e.getStep())) {
      return -1;
    }
    long checkAt = CheckpointDeadline.of(cfg, e.getStartedTs(), e.getTier(), latenessMs).checkAt();
    open.put(e.getStep(), new Open(e.getStartedTs(), checkAt, e.getTier(), e.getBytes(), false, e.getNode()));
    return checkAt;
  }

  /** A change with the event time it holds as of. */
  public record TimedChange(AlertChange change, long ts) {}

  /**
   * Event time reached {@code now}: a started checkpoint still open that {@link CheckpointDeadline}
   * judges overdue fires CheckpointSlow (once), as of its check time (or of its fallback time),
   * without waiting for it to finish, if it ever does.
   *
   * @param clock what fleet.ckpt.v1 has shown of the cluster so far
   */
  public List<TimedChange> onTime(String cluster, String job, long now, CheckpointStreamClock clock) {
    List<TimedChange> out = new ArrayList<>();
    for (Map.Entry<Long, Open> e : open.entrySet()) {
      Open o = e.getValue();
      if (o.overdue()) {
        continue;
      }
      CheckpointDeadline d = CheckpointDeadline.withCheckAt(cfg, o.startedTs(), o.tier(), o.checkAt());
      CheckpointDeadline.Verdict v = d.judge(now, clock.finishSeen(job, e.getKey()), clock.newestTsOf(o.node()));
      if (v != CheckpointDeadline.Verdict.OVERDUE && v != CheckpointDeadline.Verdict.OVERDUE_BY_FALLBACK) {
        continue;
      }
      e.setValue(new Open(o.startedTs(), o.checkAt(), o.tier(), o.bytes(), true, o.node()));
      if (!slowFiring) {
        slowFiring = true;
        long at = d.overdueSince(v);
        double elapsed = (at - o.startedTs()) / 1000.0;
        Map<String, String> l = new LinkedHashMap<>();
        l.put("cluster", cluster);
        l.put("job", job);
        l.put("tier", o.tier());
        String how = v == CheckpointDeadline.Verdict.OVERDUE
            ? "fleet.ckpt.v1 has moved past its deadline without it"
            : String.format(Locale.ROOT, "fleet.ckpt.v1 has shown nothing since from " + (o.node() != null ? o.node() : "its node") + "; judged on the other"
                + " inputs' time after the %d s grace", cfg.overdueGraceS());
        out.add(new TimedChange(new AlertChange("CheckpointSlow", "warning", true, round(elapsed), l,
            "Checkpoint slow for job " + job,
            String.format(Locale.ROOT, "step %d started %.0f s ago and has not finished (%.1f GB to %s); SLO %.0f s; %s",
                e.getKey(), elapsed, o.bytes() / 1e9, o.tier(), cfg.sloSecondsFor(o.tier()), how)), at));
      }
    }
    open.values().removeIf(o -> o.startedTs() < now - cfg.longestWindowMs());
    return out;
  }

  /**
   * True when the job has shown nothing for longer than the longest burn window, has no checkpoint
   * in progress and no alert firing: its state can go (the job ended).
   */
  public boolean idleAt(long now) {
    boolean firing = slowFiring || burnFiring.containsValue(true);
    return !firing && open.isEmpty() && lastTs != Long.MIN_VALUE && now - lastTs > cfg.longestWindowMs();
  }

  /** Checkpoints started and not finished. */
  public int openCount() {
    return open.size();
  }

  /** Median of the latest completed checkpoint durations, seconds; null before the first one. */
  public Double medianCost() {
    int n = Math.min(costCount, recentCosts.length);
    if (n == 0) {
      return null;
    }
    double[] c = Arrays.copyOf(recentCosts, n);
    Arrays.sort(c);
    return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
  }

  private double burnRate(long now, long windowS) {
    long from = now - windowS * 1000;
    int total = 0, bad = 0;
    for (List<Boolean> l : history.subMap(from, false, now, true).values()) {
      for (boolean ok : l) {
        total++;
        if (!ok) bad++;
      }
    }
    if (total == 0) {
      return 0;
    }
    return ((double) bad / total) / (1 - cfg.target());
  }

  private void evict(long now) {
    long keepFrom = now - cfg.longestWindowMs();
    history.headMap(keepFrom, true).clear();
    for (Iterator<Map.Entry<Long, Long>> it = counted.entrySet().iterator(); it.hasNext(); ) {
      if (it.next().getValue() <= keepFrom) {
        it.remove();
      }
    }
  }

  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
