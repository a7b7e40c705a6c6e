package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.ckpt.CheckpointSloAnalytic;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.fleet.FleetHygieneAnalytic;
import io.fleetscope.flink.peer.PeerOutlierAnalytic;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

/** Part B's five analytics in one pipeline give exactly what each gives alone (no shared state, no uid clash). */
class PartBAnalyticsTogetherITCase {
  @Test
  void togetherEqualsTheUnionOfEachAlone() throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.defaults();
    List<SpecificRecord> in = ThermalScenario.records(new ThermalScenario.Faults(true, true, true, true, true, true));
    List<Analytic> analytics = List.of(new ThermalRiskAnalytic(), new FacilityAnalytic(), new CheckpointSloAnalytic(), new PeerOutlierAnalytic(),
        new FleetHygieneAnalytic());
    List<String> together = Runs.anomalies(Runs.run(in, cfg, analytics, RuntimeExecutionMode.STREAMING))
        .stream().map(Runs::comparable).sorted().toList();
    List<String> alone = new ArrayList<>();
    for (Analytic a : List.of(new ThermalRiskAnalytic(), new FacilityAnalytic(), new CheckpointSloAnalytic(), new PeerOutlierAnalytic(),
        new FleetHygieneAnalytic())) {
      Runs.anomalies(Runs.run(in, cfg, List.of(a), RuntimeExecutionMode.BATCH)).stream().map(Runs::comparable).forEach(alone::add);
    }
    assertThat(together).isNotEmpty().isEqualTo(alone.stream().sorted().toList());
    assertThat(together).anyMatch(a -> a.startsWith("RackPowerOverCooling firing"))
        .anyMatch(a -> a.startsWith("GpuThermalThrottleRisk firing"));
  }
}
