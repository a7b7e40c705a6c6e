package io.fleetscope.loadgen.score;

import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Precision, recall and detection delay per alertname. A firing anomaly matches a label when the
 * alertname is the same, its labels equal the label's target on every key of the label's
 * {@code match}, and it starts within [label start - tolerance, label end]. An anomaly that matches
 * no label but is tolerated by a label on the same target (e.g. GpuThrottling during a thermal
 * fault) is neither a true nor a false positive.
 */
public final class Scorer {
  /** Default tolerance before a label's start (records arrive late, windows straddle the start). */
  public static final long DEFAULT_TOLERANCE_MS = 30_000;

  private final long toleranceMs;

  public Scorer(long toleranceMs) {
    if (toleranceMs < 0) {
      throw new IllegalArgumentException("tolerance must be >= 0");
    }
    this.toleranceMs = toleranceMs;
  }

  public Scorer() {
    this(DEFAULT_TOLERANCE_MS);
  }

  private boolean matches(GroundTruthLabel l, FiringAnomaly a) {
    return l.alertname().equals(a.alertname()) && l.matchesTarget(a.labels()) && a.startsAt() >= l.startTs() - toleranceMs
        && a.startsAt() <= l.endTs();
  }

  private boolean tolerated(GroundTruthLabel l, FiringAnomaly a) {
    return l.tolerated().contains(a.alertname()) && l.matchesTarget(a.labels())
        && a.startsAt() >= l.startTs() - toleranceMs && a.startsAt() <= l.endTs();
  }

  /** One row per alertname that was expected or fired, sorted by alertname. */
  public List<ScoreRow> score(String scenario, List<GroundTruthLabel> labels, List<FiringAnomaly> anomalies) {
    TreeSet<String> names = new TreeSet<>();
    labels.forEach(l -> names.add(l.alertname()));
    anomalies.forEach(a -> names.add(a.alertname()));
    List<ScoreRow> rows = new ArrayList<>();
    for (String name : names) {
      List<GroundTruthLabel> ls = labels.stream().filter(l -> l.alertname().equals(name)).toList();
      List<FiringAnomaly> as = anomalies.stream().filter(a -> a.alertname().equals(name)).toList();
      int detected = 0;
      List<Long> delays = new ArrayList<>();
      for (GroundTruthLabel l : ls) {
        long first = Long.MAX_VALUE;
        for (FiringAnomaly a : as) {
          if (matches(l, a)) {
            first = Math.min(first, a.startsAt());
          }
        }
        if (first != Long.MAX_VALUE) {
          detected++;
          delays.add(Math.max(0, first - l.startTs()));
        }
      }
      int tp = 0;
      int neutral = 0;
      for (FiringAnomaly a : as) {
        if (ls.stream().anyMatch(l -> matches(l, a))) {
          tp++;
        } else if (labels.stream().anyMatch(l -> tolerated(l, a))) {
          neutral++;
        }
      }
      int firing = as.size() - neutral;
      if (ls.isEmpty() && firing == 0) {
        continue;
      }
      delays.sort(null);
      long median = delays.isEmpty() ? -1 : delays.get((delays.size() - 1) / 2);
      long max = delays.isEmpty() ? -1 : delays.get(delays.size() - 1);
      rows.add(new ScoreRow(scenario, name, ls.size(), detected, firing, tp, neutral,
          firing == 0 ? Double.NaN : tp / (double) firing, ls.isEmpty() ? Double.NaN : detected / (double) ls.size(),
          median, max));
    }
    return rows;
  }

  /** A fixed-width table of rows, with a totals line. */
  public static String table(List<ScoreRow> rows) {
    StringBuilder b = new StringBuilder();
    String fmt = "%-26s %-24s %6s %8s %6s %4s %4s %9s %6s %9s %9s%n";
    b.append(String.format(Locale.ROOT, fmt, "scenario", "alertname", "labels", "detected", "firing", "tp", "fp",
        "precision", "recall", "delay_p50", "delay_max"));
    int labels = 0;
    int detected = 0;
    int firing = 0;
    int tp = 0;
    for (ScoreRow r : rows) {
      b.append(String.format(Locale.ROOT, fmt, r.scenario(), r.alertname(), r.labels(), r.detected(), r.firing(),
          r.truePositives(), r.falsePositives(), num(r.precision()), num(r.recall()), secs(r.delayMedianMs()),
          secs(r.delayMaxMs())));
      labels += r.labels();
      detected += r.detected();
      firing += r.firing();
      tp += r.truePositives();
    }
    b.append(String.format(Locale.ROOT, fmt, "TOTAL", "", labels, detected, firing, tp, firing - tp,
        num(firing == 0 ? Double.NaN : tp / (double) firing), num(labels == 0 ? Double.NaN : detected / (double) labels),
        "", ""));
    return b.toString();
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String secs(long ms) {
    return ms < 0 ? "-" : String.format(Locale.ROOT, "%.0fs", ms / 1000.0);
  }
}
