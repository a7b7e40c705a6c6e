package io.fleetscope.cli;

import io.fleetscope.avro.Alert;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One incident as its versions tell it: alert name, first start, every member it ever had, and its
 * pages (firing episodes, distinct starts_at, of a critical incident). Pure: computed from
 * fleet.alerts.v1 records, recorded or reproduced.
 */
record IncidentSummary(String fingerprint, String alertname, long startsAt, Set<String> members, int pages) {

  /** The incidents of {@code versions}, by fingerprint (sorted). */
  static Map<String, IncidentSummary> of(List<Alert> versions) {
    Map<String, List<Alert>> by = new TreeMap<>();
    for (Alert a : versions) {
      by.computeIfAbsent(a.getFingerprint(), f -> new ArrayList<>()).add(a);
    }
    Map<String, IncidentSummary> out = new TreeMap<>();
    by.forEach((fp, vs) -> {
      Set<String> members = new TreeSet<>();
      Set<Long> episodes = new LinkedHashSet<>();
      long start = Long.MAX_VALUE;
      String name = null;
      for (Alert a : vs) {
        members.addAll(a.getMembers());
        start = Math.min(start, a.getStartsAt());
        name = a.getLabels().get(AlertLabels.ALERTNAME);
        if (AlertStatus.isFiring(a.getStatus()) && "critical".equals(a.getLabels().get(AlertLabels.SEVERITY))) {
          episodes.add(a.getStartsAt());
        }
      }
      out.put(fp, new IncidentSummary(fp, name, start, Set.copyOf(members), episodes.size()));
    });
    return out;
  }
}
