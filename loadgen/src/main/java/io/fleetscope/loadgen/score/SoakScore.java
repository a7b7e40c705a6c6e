package io.fleetscope.loadgen.score;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The score of a healthy soak, where every firing anomaly is a false alarm: firing episodes by
 * alertname and severity, warnings per 1,000 GPU-days and pages (critical anomalies; the correlator
 * pages on critical ones only, and is not part of {@code bench detect}).
 *
 * @param gpus simulated GPUs
 * @param durationMs simulated time scored
 * @param firing every firing episode that started inside the scored time
 */
public record SoakScore(int gpus, long durationMs, List<FiringAnomaly> firing) {
  public static final String CRITICAL = "critical";
  public static final String WARNING = "warning";

  public static String severity(FiringAnomaly a) {
    return a.labels().getOrDefault("severity", "none");
  }

  public double gpuDays() {
    return gpus * durationMs / 86_400_000.0;
  }

  public long count(String severity) {
    return firing.stream().filter(a -> severity(a).equals(severity)).count();
  }

  /** Pages: critical anomalies. */
  public long pages() {
    return count(CRITICAL);
  }

  public double warningsPer1000GpuDays() {
    return count(WARNING) * 1000.0 / gpuDays();
  }

  /** Firing episodes by "alertname severity", sorted by name. */
  public Map<String, Long> byAlertAndSeverity() {
    Map<String, Long> out = new TreeMap<>();
    for (FiringAnomaly a : firing) {
      out.merge(a.alertname() + " " + severity(a), 1L, Long::sum);
    }
    return out;
  }

  /**
   * The report: a line of totals, the counts by alertname and severity, then every firing anomaly
   * (time from the start, alertname, severity, its node/gpu/rack/job labels), at most {@code maxListed}.
   */
  public String report(long startMs, int maxListed) {
    StringBuilder b = new StringBuilder();
    b.append(String.format("soak: %d GPUs, %.1f h, %.1f GPU-days: %d firing, %d critical (pages), %d warnings"
        + " = %.2f warnings per 1,000 GPU-days%n", gpus, durationMs / 3_600_000.0, gpuDays(), firing.size(), pages(),
        count(WARNING), warningsPer1000GpuDays()));
    b.append(String.format("%-28s %-9s %6s%n", "alertname", "severity", "firing"));
    byAlertAndSeverity().forEach((k, n) -> {
      String[] p = k.split(" ");
      b.append(String.format("%-28s %-9s %6d%n", p[0], p[1], n));
    });
    List<FiringAnomaly> sorted = new ArrayList<>(firing);
    sorted.sort(Comparator.comparingLong(FiringAnomaly::startsAt).thenComparing(FiringAnomaly::alertname));
    int listed = 0;
    for (FiringAnomaly a : sorted) {
      if (listed++ == maxListed) {
        b.append("... ").append(sorted.size() - maxListed).append(" more\n");
        break;
      }
      b.append(String.format("  +%-9s %-24s %-8s %s%n", offset(a.startsAt() - startMs), a.alertname(), severity(a),
          where(a.labels())));
    }
    return b.toString();
  }

  private static String offset(long ms) {
    long s = ms / 1000;
    return String.format("%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60);
  }

  private static String where(Map<String, String> labels) {
    StringBuilder b = new StringBuilder();
    for (String k : List.of("node", "gpu", "rack", "rail", "job", "device", "driver", "metric")) {
      if (labels.containsKey(k)) {
        b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(labels.get(k));
      }
    }
    return b.toString();
  }
}
