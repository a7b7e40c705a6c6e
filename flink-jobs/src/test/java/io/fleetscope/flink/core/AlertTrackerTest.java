package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.Fingerprint;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertTrackerTest {
  private final AnomalyFactory f = new AnomalyFactory("test");

  private AnomalyFactory.Draft down(String rack) {
    return f.alert("IbLinkDown", "critical").label("cluster", "c1").label("node", "n1").label("port", 1)
        .context("rack", rack).summary("down").description("port down");
  }

  @Test
  void firesOnceWhileTheConditionHoldsAndResolvesOnce() {
    AlertTracker t = new AlertTracker();
    assertThat(t.update(down(null), false, 1)).isNull();
    Anomaly firing = t.update(down(null), true, 10);
    assertThat(firing.getStatus()).isEqualTo("firing");
    assertThat(firing.getStartsAt()).isEqualTo(10);
    assertThat(firing.getEndsAt()).isNull();
    assertThat(t.update(down(null), true, 20)).isNull();
    Anomaly resolved = t.update(down("r1"), false, 30);
    assertThat(resolved.getStatus()).isEqualTo("resolved");
    assertThat(resolved.getStartsAt()).isEqualTo(10);
    assertThat(resolved.getEndsAt()).isEqualTo(30);
    assertThat(resolved.getFingerprint()).isEqualTo(firing.getFingerprint()); // a later-known rack does not split it
    assertThat(resolved.getAnnotations().get("summary")).isEqualTo("resolved: down");
    assertThat(t.update(down(null), false, 40)).isNull();
  }

  @Test
  void aResolveThatArrivesWithAnEarlierTimeEndsWhenTheAlertStarted() {
    AlertTracker t = new AlertTracker();
    t.update(down(null), true, 100);
    Anomaly resolved = t.update(down(null), false, 60);
    assertThat(resolved.getStartsAt()).isEqualTo(100);
    assertThat(resolved.getEndsAt()).isEqualTo(100);
    assertThat(resolved.getTs()).isEqualTo(100);
    t.update(down(null), true, 200);
    Anomaly all = t.resolveAllExcept("IbLinkDown", java.util.Set.of(), 150).get(0);
    assertThat(all.getEndsAt()).isEqualTo(200);
  }

  @Test
  void fingerprintIsTheHashOfTheSortedLabels() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("b", "2");
    a.put("a", "1");
    Map<String, String> b = new LinkedHashMap<>();
    b.put("a", "1");
    b.put("b", "2");
    assertThat(Fingerprint.of(a)).isEqualTo(Fingerprint.of(b)).hasSize(16);
    b.put("c", "3");
    assertThat(Fingerprint.of(a)).isNotEqualTo(Fingerprint.of(b));
  }

  @Test
  void recordsCarryLabelsAnnotationsAndRunbook() {
    Anomaly a = new AlertTracker().update(down("r9"), true, 5);
    assertThat(a.getLabels()).containsEntry("alertname", "IbLinkDown").containsEntry("severity", "critical")
        .containsEntry("rack", "r9").containsEntry("port", "1");
    assertThat(a.getAnnotations()).containsEntry("runbook_url", "docs/runbooks.md#iblinkdown")
        .containsEntry("description", "port down");
    assertThat(a.getSource()).isEqualTo("test");
  }
}
