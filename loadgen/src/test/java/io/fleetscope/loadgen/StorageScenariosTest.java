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
  void aFailingNvmeDriveRaisesItsErrorsAndLosesItsSpareWhileAWornOneStaysFlat() {
    ScenarioRun run = new ScenarioRun("nvme-media-errors", 8, 1);
    String failing = run.label("NvmeMediaErrors").target().get("node");
    assertThat(run.label("StorageTierDegraded").target()).containsEntry("node", failing).containsEntry("tier", "local-nvme");
    List<StorageSample> s = run.of(StorageSample.class);
    assertThat(s).allSatisfy(x -> assertThat(x.getTier()).isEqualTo("local-nvme"));
    assertThat(s.stream().map(StorageSample::getNode).distinct()).hasSize(8);
    Map<String, List<StorageSample>> byNode = new TreeMap<>();
    for (StorageSample x : s) byNode.computeIfAbsent(x.getNode(), k -> new java.util.ArrayList<>()).add(x);
    long faultAt = run.start() + 180_000;
    for (var e : byNode.entrySet()) {
      List<StorageSample> l = e.getValue();
      assertThat(l).hasSize(20); // every 30 s for 10 minutes
      StorageSample last = l.get(l.size() - 1);
      if (e.getKey().equals(failing)) {
        assertThat(l).filteredOn(x -> x.getTs() < faultAt).allSatisfy(x -> assertThat(x.getMediaErrors()).isZero());
        assertThat(last.getMediaErrors()).isBetween(8L, 30L); // about 2 a minute over 7 minutes
        assertThat(last.getAvailableSparePct()).isLessThan(10);
        assertThat(last.getCriticalWarning()).isEqualTo(1);
      } else {
        assertThat(l.stream().map(StorageSample::getMediaErrors).distinct()).hasSize(1); // flat: 0, or the worn drive's 40
        assertThat(l).allSatisfy(x -> assertThat(x.getCriticalWarning()).isZero());
        assertThat(last.getPercentageUsed()).isLessThan(90);
      }
      assertThat(last.getWriteBytes()).isGreaterThan(l.get(0).getWriteBytes());
    }
    assertThat(byNode.values().stream().filter(l -> l.get(0).getMediaErrors() == 40 && l.get(0).getPercentageUsed() == 85))
        .as("the worn drive").hasSize(1);
    assertThat(run.sim.labels()).extracting(l -> l.alertname() + "@" + l.target().get("node"))
        .containsExactlyInAnyOrder("NvmeMediaErrors@" + failing, "StorageTierDegraded@" + failing);
  }

  @Test
  void anInfinibandPortRetrainsAtTwoLanesAndBackWhileItsPeersStayAtFour() {
    ScenarioRun run = new ScenarioRun("ib-port-narrow", 8, 1);
    GroundTruthLabel drift = run.label("FabricConfigDrift");
    assertThat(drift.target()).containsEntry("rail", "5").containsEntry("device", "mlx5_5");
    List<io.fleetscope.avro.PortConfig> ports = run.of(io.fleetscope.avro.PortConfig.class);
    assertThat(ports).filteredOn(p -> p.getTs() == run.start()).hasSize(8 * 8)
        .allSatisfy(p -> assertThat(p.getLinkWidth() + " " + p.getRateGbps() + " " + p.getLinkSpeed()).isEqualTo("4X 400.0 NDR"));
    assertThat(ports).filteredOn(p -> p.getTs() > run.start())
        .extracting(p -> p.getNode() + " " + p.getDevice() + " " + p.getLinkWidth() + " " + p.getRateGbps() + " @" + (p.getTs() - run.start()) / 1000)
        .containsExactly(drift.target().get("node") + " mlx5_5 2X 200.0 @180", drift.target().get("node") + " mlx5_5 4X 400.0 @420");
  }

  @Test
  void anInfinibandPortWithASmallMtuAndAnotherWithEverySlOnVlZeroWhileTheirPeersKeepTheSite() {
    ScenarioRun run = new ScenarioRun("ib-mtu-mismatch", 8, 1);
    assertThat(run.sim.labels()).extracting(l -> l.alertname() + " " + l.target().get("rail") + " " + l.target().get("field"))
        .containsExactlyInAnyOrder("FabricConfigDrift 5 active_mtu", "FabricConfigDrift 1 sl2vl");
    List<io.fleetscope.avro.PortConfig> ports = run.of(io.fleetscope.avro.PortConfig.class);
    assertThat(ports).filteredOn(p -> p.getTs() == run.start()).hasSize(8 * 8).allSatisfy(p -> {
      assertThat(p.getActiveMtu()).isEqualTo(4096);
      assertThat(p.getSl2vl()).isEqualTo(List.of(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7));
    });
    assertThat(ports).filteredOn(p -> p.getTs() > run.start())
        .extracting(p -> p.getDevice() + " " + p.getActiveMtu() + " " + p.getSl2vl().stream().distinct().toList() + " @"
            + (p.getTs() - run.start()) / 1000)
        .containsExactly("mlx5_5 2048 [0, 1, 2, 3, 4, 5, 6, 7] @180", "mlx5_1 4096 [0] @240",
            "mlx5_5 4096 [0, 1, 2, 3, 4, 5, 6, 7] @420", "mlx5_1 4096 [0, 1, 2, 3, 4, 5, 6, 7] @480");
  }

  @Test
  void anomaliesAreScoredUnderTheCauseTheyName() {
    assertThat(FaultType.scoredName("CheckpointSlow", "slow tier")).isEqualTo("CheckpointSlow[slow tier]");
    assertThat(FaultType.scoredName("CheckpointSlow", "unknown")).isEqualTo("CheckpointSlow");
    assertThat(FaultType.scoredName("GpuXid", null)).isEqualTo("GpuXid");
  }
}
