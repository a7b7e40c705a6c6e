package io.fleetscope.flink.fabric;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

/**
 * The analytic on the MiniCluster (parallelism 2): 8 nodes x 2 rails of RoCE ports, their GPU
 * samples around them; n3's rail-1 port turns PFC off at 120 s and back on at 400 s.
 */
class FabricDriftAnalyticITCase {

  @Test
  void pfcTurnedOffOnOnePortFiresOnceAndResolvesWhenTurnedBackOn() throws Exception {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      for (int rail = 0; rail < 2; rail++) in.add(FabricAuditTest.port("n" + n, rail, t(0)).build());
    }
    in.add(FabricAuditTest.port("n3", 1, t(120)).setPfcPrios(List.of()).build());
    in.add(FabricAuditTest.port("n3", 1, t(400)).build());
    long seq = 0;
    for (int s = 0; s < 600; s += 30) {
      for (int n = 1; n <= 8; n++) in.add(Fleet.gpu("n" + n, 0, t(s), seq++).build());
    }
    List<Anomaly> a = Runs.anomalies(Runs.run(in, AnalyticsConfig.defaults(), List.of(new FabricDriftAnalytic()),
        RuntimeExecutionMode.BATCH));
    assertThat(a).extracting(x -> x.getStatus() + " " + x.getLabels().get("node") + " " + x.getLabels().get("device")
        + " " + x.getLabels().get("field") + " " + (x.getTs() - t(0)) / 1000)
        .containsExactly("firing n3 mlx5_1 pfc_prios 120", "resolved n3 mlx5_1 pfc_prios 400");
  }
}
