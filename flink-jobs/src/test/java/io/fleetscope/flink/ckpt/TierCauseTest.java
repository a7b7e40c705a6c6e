package io.fleetscope.flink.ckpt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TierCauseTest {
  private static Anomaly slow(String tier) {
    Map<String, String> ann = new LinkedHashMap<>();
    ann.put("summary", "checkpoint slow");
    ann.put("description", "step 100 took 300 s.");
    return Anomaly.newBuilder().setTs(1L).setFingerprint("f").setStatus("firing")
        .setLabels(new LinkedHashMap<>(Map.of("alertname", "CheckpointSlow", "tier", tier, "job", "j1")))
        .setAnnotations(ann).setStartsAt(1L).build();
  }

  @Test
  void degradedTierIsASlowTier() {
    Anomaly a = slow("lustre");
    TierCause.annotate(a, Map.of("lustre", new TierCause.Mark(true, 180.4, 0L)));
    assertThat(a.getAnnotations()).containsEntry("tier_state", "degraded").containsEntry("cause", "slow tier");
    assertThat(a.getAnnotations().get("description"))
        .isEqualTo("step 100 took 300 s. Tier lustre is degraded (StorageTierDegraded, median write latency 180 ms): a slow tier, not the job.");
    assertThat(a.getLabels()).doesNotContainKeys("tier_state", "cause");
  }

  @Test
  void healthyTierIsASlowJobAndNoSamplesIsUnknown() {
    Anomaly a = slow("lustre");
    TierCause.annotate(a, Map.of("lustre", new TierCause.Mark(false, 9.6, 0L)));
    assertThat(a.getAnnotations()).containsEntry("tier_state", "healthy").containsEntry("cause", "slow job");
    Anomaly b = slow("s3");
    TierCause.annotate(b, new HashMap<>(Map.of("lustre", new TierCause.Mark(true, 200, 0L))));
    assertThat(b.getAnnotations()).containsEntry("tier_state", "unknown").containsEntry("cause", "unknown");
  }

  @Test
  void anAnomalyWithoutATierLabelUsesTheTierOfItsCheckpoint() {
    Anomaly burn = slow("lustre");
    burn.getLabels().remove("tier");
    TierCause.annotate(burn, Map.of("lustre", new TierCause.Mark(true, 150, 0L)), "lustre");
    assertThat(burn.getAnnotations()).containsEntry("cause", "slow tier");
  }
}
