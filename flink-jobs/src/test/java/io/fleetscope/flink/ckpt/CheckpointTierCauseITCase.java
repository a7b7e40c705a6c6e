package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CkptFixtures.TB;
import static io.fleetscope.flink.ckpt.CkptFixtures.done;
import static io.fleetscope.flink.ckpt.CkptFixtures.started;
import static io.fleetscope.flink.ckpt.CkptFixtures.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.storage.StorageTierAnalytic;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint and storage analytics together on a MiniCluster: one job's slow checkpoint
 * (step 12, 90 s against a 60 s SLO) while the Lustre tier's four clients write at 8 ms per write
 * (a slow job) or at 160 ms from 7100 s on (a slow tier).
 */
class CheckpointTierCauseITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  private static List<SpecificRecord> input(boolean tierDegraded) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      in.add(started("llm", i, i * 600, TB));
      in.add(done("llm", i, i * 600, i == 12 ? 90 : 30, TB));
    }
    for (int n = 1; n <= 4; n++) {
      long ops = 0;
      long timeMs = 0;
      for (int s = 6900; s <= 7500; s += 10) {
        ops += 100;
        timeMs += 100 * (tierDegraded && s > 7100 ? 160 : 8);
        in.add(StorageSample.newBuilder().setTs(t(s)).setCluster("c1").setNode("n" + n).setAgentSeq(s).setSource("lustre-llite")
            .setTier("lustre").setDevice("fs1").setWriteOps(ops).setWriteTimeMs(timeMs).setWriteBytes(ops << 20).build());
      }
    }
    return in;
  }

  private static List<Anomaly> firing(List<Anomaly> all, String alertname) {
    return all.stream().filter(a -> a.getLabels().get("alertname").equals(alertname) && a.getStatus().equals("firing")).toList();
  }

  @Test
  void slowCheckpointOnADegradedTierNamesTheTier() throws Exception {
    List<Anomaly> out = Runs.anomalies(Runs.run(input(true), cfg, List.of(new CheckpointSloAnalytic(), new StorageTierAnalytic()),
        RuntimeExecutionMode.BATCH));
    assertThat(firing(out, "CheckpointSlow")).singleElement().satisfies(a -> {
      assertThat(a.getAnnotations()).containsEntry("tier_state", "degraded").containsEntry("cause", "slow tier");
      assertThat(a.getAnnotations().get("description")).contains("median write latency 160 ms");
    });
    assertThat(firing(out, "CheckpointSloBurn")).isNotEmpty()
        .allSatisfy(a -> assertThat(a.getAnnotations()).containsEntry("cause", "slow tier"));
    assertThat(firing(out, "StorageTierDegraded")).extracting(Runs::brief).containsExactly(
        "StorageTierDegraded firing {alertname=StorageTierDegraded, cluster=c1, severity=warning, tier=lustre} ts=" + t(7110));
  }

  @Test
  void slowCheckpointOnAHealthyTierNamesTheJob() throws Exception {
    List<Anomaly> out = Runs.anomalies(Runs.run(input(false), cfg, List.of(new CheckpointSloAnalytic(), new StorageTierAnalytic()),
        RuntimeExecutionMode.BATCH));
    assertThat(firing(out, "CheckpointSlow")).singleElement().satisfies(a ->
        assertThat(a.getAnnotations()).containsEntry("tier_state", "healthy").containsEntry("cause", "slow job"));
    assertThat(firing(out, "StorageTierDegraded")).isEmpty();
  }

  @Test
  void theCheckpointAnalyticAloneStillNamesTheSlowTierAndRaisesNoStorageAlert() throws Exception {
    // both analytics read one tier stage (uid storage-tier-peers: a second one would be a uid collision above)
    List<Anomaly> out = Runs.anomalies(Runs.run(input(true), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH));
    assertThat(firing(out, "CheckpointSlow")).singleElement().satisfies(a ->
        assertThat(a.getAnnotations()).containsEntry("tier_state", "degraded").containsEntry("cause", "slow tier"));
    assertThat(firing(out, "StorageTierDegraded")).isEmpty();
  }
}
