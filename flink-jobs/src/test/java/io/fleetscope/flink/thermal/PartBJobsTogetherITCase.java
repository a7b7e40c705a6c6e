package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.ckpt.CheckpointSloJob;
import io.fleetscope.flink.core.AnalyticJob;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.fleet.FleetHygieneJob;
import io.fleetscope.flink.peer.PeerOutlierJob;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

/** Part B's five jobs in one pipeline give exactly what each gives alone (no shared state, no uid clash). */
class PartBJobsTogetherITCase {
  @Test
  void togetherEqualsTheUnionOfEachAlone() throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.defaults();
    List<SpecificRecord> in = ThermalScenario.records(new ThermalScenario.Faults(true, true, true, true, true, true));
    List<AnalyticJob> jobs = List.of(new ThermalRiskJob(), new FacilityJob(), new CheckpointSloJob(), new PeerOutlierJob(),
        new FleetHygieneJob());
    List<String> together = Runs.anomalies(Runs.run(in, cfg, jobs, RuntimeExecutionMode.STREAMING))
        .stream().map(Runs::brief).sorted().toList();
    List<String> alone = new ArrayList<>();
    for (AnalyticJob j : List.of(new ThermalRiskJob(), new FacilityJob(), new CheckpointSloJob(), new PeerOutlierJob(),
        new FleetHygieneJob())) {
      Runs.anomalies(Runs.run(in, cfg, List.of(j), RuntimeExecutionMode.BATCH)).stream().map(Runs::brief).forEach(alone::add);
    }
    assertThat(together).isNotEmpty().isEqualTo(alone.stream().sorted().toList());
    assertThat(together).anyMatch(a -> a.startsWith("RackPowerOverCooling firing"))
        .anyMatch(a -> a.startsWith("GpuThermalThrottleRisk firing"));
  }
}
