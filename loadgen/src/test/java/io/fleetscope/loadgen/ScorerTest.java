package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.loadgen.output.LabelsWriter;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.score.FiringAnomaly;
import io.fleetscope.loadgen.score.ScoreRow;
import io.fleetscope.loadgen.score.Scorer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScorerTest {
  private static final long T0 = 1_767_225_600_000L;
  private static final long MIN = 60_000;
  private final Scorer scorer = new Scorer(30_000);

  private static GroundTruthLabel gpuLabel(String alert, String node, int gpu, long start, long end, List<String> tol) {
    return new GroundTruthLabel("s", "f", "thermal_runaway", alert,
        Map.of("cluster", "sim", "node", node, "gpu", Integer.toString(gpu), "rack", "rack-001"),
        List.of("cluster", "node", "gpu"), start, end, tol);
  }

  private static FiringAnomaly anomaly(String alert, String node, int gpu, long startsAt) {
    return new FiringAnomaly(alert, Map.of("alertname", alert, "cluster", "sim", "node", node, "gpu",
        Integer.toString(gpu), "severity", "warning"), startsAt, alert + node + gpu);
  }

  private static ScoreRow row(List<ScoreRow> rows, String alert) {
    return rows.stream().filter(r -> r.alertname().equals(alert)).findFirst().orElseThrow();
  }

  @Test
  void matchingAnomalyGivesFullScoresAndItsDelay() {
    var rows = scorer.score("s", List.of(gpuLabel("GpuThermalThrottleRisk", "n1", 5, T0 + 3 * MIN, T0 + 8 * MIN, List.of())),
        List.of(anomaly("GpuThermalThrottleRisk", "n1", 5, T0 + 3 * MIN + 45_000)));
    ScoreRow r = row(rows, "GpuThermalThrottleRisk");
    assertThat(r.precision()).isEqualTo(1.0);
    assertThat(r.recall()).isEqualTo(1.0);
    assertThat(r.delayMedianMs()).isEqualTo(45_000);
    assertThat(r.falsePositives()).isZero();
  }

  @Test
  void wrongTargetIsAFalsePositiveAndAMiss() {
    var rows = scorer.score("s", List.of(gpuLabel("GpuXid", "n1", 5, T0, T0 + MIN, List.of())),
        List.of(anomaly("GpuXid", "n1", 4, T0 + 1000)));
    ScoreRow r = row(rows, "GpuXid");
    assertThat(r.precision()).isEqualTo(0.0);
    assertThat(r.recall()).isEqualTo(0.0);
    assertThat(r.falsePositives()).isEqualTo(1);
    assertThat(r.delayMedianMs()).isEqualTo(-1);
  }

  @Test
  void toleranceBeforeStartCountsWithZeroDelayButNotEarlierOrAfterTheEnd() {
    GroundTruthLabel l = gpuLabel("GpuXid", "n1", 5, T0 + 10 * MIN, T0 + 12 * MIN, List.of());
    ScoreRow early = row(scorer.score("s", List.of(l), List.of(anomaly("GpuXid", "n1", 5, T0 + 10 * MIN - 20_000))), "GpuXid");
    assertThat(early.recall()).isEqualTo(1.0);
    assertThat(early.delayMedianMs()).isZero();
    ScoreRow tooEarly = row(scorer.score("s", List.of(l), List.of(anomaly("GpuXid", "n1", 5, T0 + 10 * MIN - 31_000))), "GpuXid");
    assertThat(tooEarly.recall()).isEqualTo(0.0);
    assertThat(tooEarly.precision()).isEqualTo(0.0);
    ScoreRow atEnd = row(scorer.score("s", List.of(l), List.of(anomaly("GpuXid", "n1", 5, T0 + 12 * MIN))), "GpuXid");
    assertThat(atEnd.recall()).isEqualTo(1.0);
    ScoreRow late = row(scorer.score("s", List.of(l), List.of(anomaly("GpuXid", "n1", 5, T0 + 12 * MIN + 1))), "GpuXid");
    assertThat(late.recall()).isEqualTo(0.0);
  }

  @Test
  void mixedSetGivesKnownPrecisionRecallAndDelays() {
    // 4 labels, 3 detected (delays 10 s, 20 s, 90 s), 5 anomalies of which 4 true (one label matched twice), 1 false
    List<GroundTruthLabel> labels = List.of(
        gpuLabel("GpuXid", "n1", 0, T0, T0 + 5 * MIN, List.of()),
        gpuLabel("GpuXid", "n2", 0, T0, T0 + 5 * MIN, List.of()),
        gpuLabel("GpuXid", "n3", 0, T0, T0 + 5 * MIN, List.of()),
        gpuLabel("GpuXid", "n4", 0, T0, T0 + 5 * MIN, List.of()));
    List<FiringAnomaly> as = List.of(
        anomaly("GpuXid", "n1", 0, T0 + 10_000),
        new FiringAnomaly("GpuXid", Map.of("alertname", "GpuXid", "cluster", "sim", "node", "n1", "gpu", "0", "xid", "74"),
            T0 + 60_000, "other-fp"),
        anomaly("GpuXid", "n2", 0, T0 + 20_000),
        anomaly("GpuXid", "n3", 0, T0 + 90_000),
        anomaly("GpuXid", "n9", 0, T0 + 30_000));
    ScoreRow r = row(scorer.score("s", labels, as), "GpuXid");
    assertThat(r.labels()).isEqualTo(4);
    assertThat(r.detected()).isEqualTo(3);
    assertThat(r.recall()).isEqualTo(0.75);
    assertThat(r.firing()).isEqualTo(5);
    assertThat(r.truePositives()).isEqualTo(4);
    assertThat(r.precision()).isEqualTo(0.8);
    assertThat(r.delayMedianMs()).isEqualTo(20_000);
    assertThat(r.delayMaxMs()).isEqualTo(90_000);
  }

  @Test
  void toleratedAlertOnTheTargetIsNeutralElsewhereItIsFalse() {
    GroundTruthLabel l = gpuLabel("GpuThermalThrottleRisk", "n1", 5, T0, T0 + 5 * MIN, List.of("GpuThrottling"));
    var rows = scorer.score("s", List.of(l), List.of(
        anomaly("GpuThermalThrottleRisk", "n1", 5, T0 + 30_000),
        anomaly("GpuThrottling", "n1", 5, T0 + 60_000),
        anomaly("GpuThrottling", "n2", 5, T0 + 60_000)));
    ScoreRow thr = row(rows, "GpuThrottling");
    assertThat(thr.tolerated()).isEqualTo(1);
    assertThat(thr.firing()).isEqualTo(1);
    assertThat(thr.falsePositives()).isEqualTo(1);
    assertThat(thr.recall()).isNaN();
    assertThat(row(rows, "GpuThermalThrottleRisk").precision()).isEqualTo(1.0);
  }

  @Test
  void healthyRunAnomaliesAreAllFalsePositives() {
    var rows = scorer.score("healthy", List.of(), List.of(anomaly("GpuXid", "n1", 0, T0), anomaly("GpuXid", "n2", 0, T0)));
    ScoreRow r = row(rows, "GpuXid");
    assertThat(r.precision()).isEqualTo(0.0);
    assertThat(r.recall()).isNaN();
    assertThat(r.falsePositives()).isEqualTo(2);
    assertThat(scorer.score("healthy", List.of(), List.of())).isEmpty();
  }

  @Test
  void readsAnalyzeOutputCountingEachFiringEpisodeOnce() {
    String a = "{\"topic\":\"fleet.anomalies.v1\",\"key\":\"fp1\",\"value\":{\"ts\":%d,\"fingerprint\":\"fp1\",\"status\":\"%s\","
        + "\"labels\":{\"alertname\":\"GpuXid\",\"node\":\"n1\",\"gpu\":\"0\",\"cluster\":\"sim\"},\"annotations\":{},"
        + "\"starts_at\":%d,\"ends_at\":null,\"value\":74.0,\"source\":\"ecc\"}}";
    List<String> lines = List.of(
        "{\"topic\":\"fleet.ecc.trend.v1\",\"key\":\"x\",\"value\":{\"ts\":1}}",
        String.format(a, T0 + 5000, "firing", T0 + 5000),
        String.format(a, T0 + 65_000, "firing", T0 + 5000),
        String.format(a, T0 + 90_000, "resolved", T0 + 5000),
        String.format(a, T0 + 200_000, "firing", T0 + 200_000),
        "");
    List<FiringAnomaly> got = FiringAnomaly.parse(lines, "t");
    assertThat(got).extracting(FiringAnomaly::startsAt).containsExactly(T0 + 5000, T0 + 200_000);
    assertThat(got.get(0).labels()).containsEntry("node", "n1");
    assertThatThrownBy(() -> FiringAnomaly.parse(List.of("{nope"), "f.jsonl")).hasMessageContaining("f.jsonl:1");
    assertThatThrownBy(() -> FiringAnomaly.parse(List.of("{\"topic\":\"fleet.anomalies.v1\",\"value\":{\"x\":1}}"), "f"))
        .hasMessageContaining("not an anomaly");
  }

  @Test
  void labelsRoundTripThroughTheLabelsFile() {
    GroundTruthLabel l = gpuLabel("GpuXid", "n1", 5, T0, T0 + MIN, List.of("GpuThrottling"));
    GroundTruthLabel back = LabelsWriter.parse(LabelsWriter.toJson(l));
    assertThat(back.alertname()).isEqualTo(l.alertname());
    assertThat(back.target()).isEqualTo(l.target());
    assertThat(back.match()).isEqualTo(l.match());
    assertThat(back.startTs()).isEqualTo(l.startTs());
    assertThat(back.endTs()).isEqualTo(l.endTs());
    assertThat(back.tolerated()).isEqualTo(l.tolerated());
  }

  @Test
  void tableShowsRowsAndTotals() {
    var rows = scorer.score("s", List.of(gpuLabel("GpuXid", "n1", 5, T0, T0 + MIN, List.of())),
        List.of(anomaly("GpuXid", "n1", 5, T0 + 12_000)));
    String t = Scorer.table(rows);
    assertThat(t).contains("GpuXid").contains("1.00").contains("12s").contains("TOTAL");
  }
}
