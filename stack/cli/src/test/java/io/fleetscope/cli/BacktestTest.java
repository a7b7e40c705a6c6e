package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.loadgen.output.ScenarioBundle;
import io.fleetscope.loadgen.score.ScoreRow;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleFile;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.BundleWriter;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulator scenario with a cooling incident and an ECC failure, written as a bundle with its
 * ground truth, scored by backtest (today's analytics and correlator); then the incidents it produced
 * recorded into a second bundle, as an export would, which backtest reproduces exactly.
 */
class BacktestTest {
  static final String SCENARIO = "src/test/resources/scenarios/cooling-and-ecc.yaml";

  @Test
  void scoresAScenarioBundleThenReproducesItsRecordedIncidents(@TempDir Path tmp) throws Exception {
    Manifest written = ScenarioBundle.write(SCENARIO, 8, 42, tmp.resolve("scenario"));
    assertThat(written.filesOf(BundleRole.LABELS)).singleElement().satisfies(f -> assertThat(f.records()).isPositive());
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    BacktestCommand backtest = new BacktestCommand(new PrintStream(buf, true, StandardCharsets.UTF_8));

    BundleReader scenario = BundleReader.open(tmp.resolve("scenario"));
    BacktestCommand.Outcome first = backtest.score(scenario);
    assertThat(first.expected()).isEqualTo("labels");
    assertThat(first.rows()).extracting(ScoreRow::alertname)
        .contains("CoolantFlowLow", "GpuThermalThrottleRisk", "GpuEccUncorrectable");
    assertThat(first.rows()).filteredOn(r -> r.labels() > 0).allSatisfy(r -> assertThat(r.recall()).as(r.alertname()).isEqualTo(1.0));
    // nothing was recorded: every incident is new, among them the cooling incident and the ECC failure
    assertThat(first.incidents().appeared()).anyMatch(s -> s.contains("CoolantFlowLow")).anyMatch(s -> s.contains("GpuEcc"));

    // record what today's pipeline made of it (anomalies, incident versions) into a bundle, as an export would
    List<JsonLines.Line> produced = first.produced();
    Path recorded = tmp.resolve("recorded");
    try (BundleWriter w = BundleWriter.create(recorded, scenario.manifest().from(), scenario.manifest().to(), Map.of(), null)) {
      for (BundleFile f : scenario.manifest().files()) {
        if (f.isAvro()) {
          var out = w.topic(f.topic(), f.role(), f.source(), f.keyField());
          scenario.records(f).forEach(out::append);
        }
      }
      for (JsonLines.Line l : produced) {
        BundleRole role = l.topic().equals(Topics.ANOMALIES) ? BundleRole.ANOMALIES
            : l.topic().equals(Topics.ALERTS) ? BundleRole.ALERTS : l.topic().equals(Topics.DLQ) ? null : BundleRole.DERIVED;
        if (role != null) {
          w.topic(l.topic(), role, RecordSource.FILE, null).append(l.value());
        }
      }
    }
    BacktestCommand.Outcome again = backtest.score(BundleReader.open(recorded));
    assertThat(again.expected()).isEqualTo("recorded");
    assertThat(again.incidents().same()).as(again.incidents().table()).isTrue();
    assertThat(again.rows()).allSatisfy(r -> assertThat(r.recall()).as(r.alertname()).isEqualTo(1.0));
    List<Alert> versions = produced.stream().filter(l -> l.topic().equals(Topics.ALERTS)).map(l -> (Alert) l.value()).toList();
    Map<String, IncidentSummary> incidents = IncidentSummary.of(versions);
    IncidentSummary cooling = incidents.values().stream().filter(i -> i.alertname().equals("CoolantFlowLow")).findFirst().orElseThrow();
    assertThat(cooling.members()).hasSizeGreaterThan(1);
    assertThat(cooling.pages()).isEqualTo(1);
  }
}
