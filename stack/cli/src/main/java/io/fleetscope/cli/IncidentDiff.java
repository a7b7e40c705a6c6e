package io.fleetscope.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Recorded incidents against reproduced ones: which appear or disappear (by fingerprint), which
 * changed members or started more than {@code granularityMs} apart, and per alert name the count of
 * incidents and pages on each side. Pure.
 */
record IncidentDiff(List<String> appeared, List<String> disappeared, List<String> changed, Map<String, int[]> byAlertname) {

  /** Whether both sides have the same incidents, members and pages, with starts within the granularity. */
  boolean same() {
    return appeared.isEmpty() && disappeared.isEmpty() && changed.isEmpty()
        && byAlertname.values().stream().allMatch(c -> c[2] == c[3]);
  }

  static IncidentDiff of(Map<String, IncidentSummary> recorded, Map<String, IncidentSummary> now, long granularityMs) {
    List<String> appeared = new ArrayList<>();
    List<String> disappeared = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    Map<String, int[]> by = new TreeMap<>(); // incidents recorded, now; pages recorded, now
    for (IncidentSummary r : recorded.values()) {
      int[] c = by.computeIfAbsent(r.alertname(), k -> new int[4]);
      c[0]++;
      c[2] += r.pages();
      IncidentSummary n = now.get(r.fingerprint());
      if (n == null) {
        disappeared.add(describe(r));
        continue;
      }
      if (!n.members().equals(r.members())) {
        Set<String> added = new TreeSet<>(n.members());
        added.removeAll(r.members());
        Set<String> gone = new TreeSet<>(r.members());
        gone.removeAll(n.members());
        changed.add(r.fingerprint() + " " + r.alertname() + " members +" + added + " -" + gone);
      }
      long delta = n.startsAt() - r.startsAt();
      if (Math.abs(delta) > granularityMs) {
        changed.add(String.format(Locale.ROOT, "%s %s starts %+.0fs later", r.fingerprint(), r.alertname(), delta / 1000.0));
      }
    }
    for (IncidentSummary n : now.values()) {
      int[] c = by.computeIfAbsent(n.alertname(), k -> new int[4]);
      c[1]++;
      c[3] += n.pages();
      if (!recorded.containsKey(n.fingerprint())) {
        appeared.add(describe(n));
      }
    }
    return new IncidentDiff(appeared, disappeared, changed, by);
  }

  private static String describe(IncidentSummary s) {
    return s.fingerprint() + " " + s.alertname() + " starts_at=" + java.time.Instant.ofEpochMilli(s.startsAt())
        + " members=" + s.members().size() + " pages=" + s.pages();
  }

  String table() {
    StringBuilder b = new StringBuilder();
    String fmt = "%-26s %18s %14s %14s %10s%n";
    b.append(String.format(Locale.ROOT, fmt, "alertname", "incidents_recorded", "incidents_now", "pages_recorded", "pages_now"));
    byAlertname.forEach((name, c) -> b.append(String.format(Locale.ROOT, fmt, name, c[0], c[1], c[2], c[3])));
    appeared.forEach(s -> b.append("+ appears    ").append(s).append('\n'));
    disappeared.forEach(s -> b.append("- disappears ").append(s).append('\n'));
    changed.forEach(s -> b.append("~ changed    ").append(s).append('\n'));
    return b.toString();
  }
}
