package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.StorageSample;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The storage-tier scenarios: a degraded parallel file system vs a slow job on a healthy tier. */
class StorageScenariosTest {

  /** Median over the nodes of the write latency (ms per write) between two sample times. */
  private static double medianLatency(List<StorageSample> samples, long from, long to) {
    Map<String, StorageSample> a = new TreeMap<>();
    Map<String, StorageSample> b = new TreeMap<>();
    for (StorageSample s : samples) {
      if (s.getTs() == from) a.put(s.getNode(), s);
      if (s.getTs() == to) b.put(s.getNode(), s);
    }
    assertThat(a).hasSameSizeAs(b).isNotEmpty();
    double[] l = a.keySet().stream().mapToDouble(n -> (b.get(n).getWriteTimeMs() - a.get(n).getWriteTimeMs())
        / (double) (b.get(n).getWriteOps() - a.get(n).getWriteOps())).sorted().toArray();
    return l[l.length / 2];
  }

  @Test
  void degradedTierSlowsEveryClientsWritesWhileTheFaultIsActive() {
    ScenarioRun run = new ScenarioRun("pfs-degraded", 8, 1);
    GroundTruthLabel tier = run.label("StorageTierDegraded");
    assertThat(tier.target()).containsEntry("tier", "lustre");
    run.label("CheckpointSlow[slow tier]");
    List<StorageSample> s = run.of(StorageSample.class);
    assertThat(s.stream().map(StorageSample::getNode).distinct()).hasSize(8);
    assertThat(s).allSatisfy(x -> assertThat(x.getTier()).isEqualTo("lustre"));
    double before = medianLatency(s, run.start() + 60_000, run.start() + 110_000);
    double during = medianLatency(s, run.start() + 200_000, run.start() + 300_000);
    assertThat(before).isBetween(6.0, 10.0);
    assertThat(during).isGreaterThan(100.0);
  }

  @Test
  void slowJobLeavesTheTierHealthy() {
    ScenarioRun run = new ScenarioRun("slow-checkpoint-job", 8, 1);
    run.label("CheckpointSlow[slow job]");
    assertThat(run.sim.labels()).noneMatch(l -> l.alertname().startsWith("StorageTierDegraded"));
    List<StorageSample> s = run.of(StorageSample.class);
    assertThat(medianLatency(s, run.start() + 200_000, run.start() + 300_000)).isBetween(6.0, 10.0);
  }

  @Test
  void anomaliesAreScoredUnderTheCauseTheyName() {
    assertThat(FaultType.scoredName("CheckpointSlow", "slow tier")).isEqualTo("CheckpointSlow[slow tier]");
    assertThat(FaultType.scoredName("CheckpointSlow", "unknown")).isEqualTo("CheckpointSlow");
    assertThat(FaultType.scoredName("GpuXid", null)).isEqualTo("GpuXid");
  }
}
