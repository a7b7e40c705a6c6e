package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The correlator's topology over recorded anomalies on their event time: the incidents, versions and pages it gives. */
class OfflineCorrelatorTest {

  @Test
  void groupsACoolingIncidentKeepsAnEccFailureApartAndPagesEachOnce() {
    Instant t = Fleet.T0.plusSeconds(60);
    Anomaly cause = Fleet.coolantFlowLow(t);
    List<Anomaly> hot = Fleet.rack07Hot(t.plusSeconds(20));
    Anomaly ecc = Fleet.firing(t.plusSeconds(30), Fleet.labels("alertname", "GpuEccUncorrectable", "severity", "critical",
        "node", Fleet.node(8, 1), "gpu", "3"));
    List<Anomaly> all = new ArrayList<>();
    all.add(cause);
    all.addAll(hot);
    all.add(ecc);
    all.add(Fleet.resolved(cause, t.plusSeconds(300)));
    hot.forEach(h -> all.add(Fleet.resolved(h, t.plusSeconds(300))));
    all.add(Fleet.resolved(ecc, t.plusSeconds(400)));

    OfflineCorrelator.Result r = OfflineCorrelator.run(CorrelatorConfig.defaults(), Fleet.inventory(), all);

    Map<String, List<Alert>> byIncident = r.versions().stream().collect(Collectors.groupingBy(Alert::getFingerprint));
    assertThat(byIncident).hasSize(2);
    Alert cooling = r.versions().stream().filter(a -> "CoolantFlowLow".equals(a.getLabels().get("alertname")))
        .reduce((a, b) -> b).orElseThrow();
    Alert coolingAtMost = byIncident.get(cooling.getFingerprint()).stream()
        .max((a, b) -> Integer.compare(a.getMembers().size(), b.getMembers().size())).orElseThrow();
    List<String> members = new ArrayList<>(hot.stream().map(Anomaly::getFingerprint).toList());
    members.add(cause.getFingerprint());
    assertThat(coolingAtMost.getMembers()).containsExactlyInAnyOrderElementsOf(members);
    assertThat(cooling.getStatus()).isEqualTo("resolved");
    Alert eccLast = byIncident.values().stream().filter(v -> !v.get(0).getFingerprint().equals(cooling.getFingerprint()))
        .findFirst().orElseThrow().stream().reduce((a, b) -> b).orElseThrow();
    assertThat(eccLast.getStatus()).isEqualTo("resolved");
    assertThat(eccLast.getEndsAt()).isEqualTo(t.plusSeconds(400).toEpochMilli());
    // two critical incidents, each paged once although the firing ones were re-sent every minute
    assertThat(r.pages()).hasSize(2);
    assertThat(r.notifications().stream().filter(n -> n.status().equals("firing")).count()).isGreaterThan(2);
    assertThat(r.pages().get(0).sentAt()).isBetween(t.toEpochMilli(), t.toEpochMilli() + OfflineCorrelator.STEP.toMillis());
  }
}
