package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleFile;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The postmortem loop on a scenario with a cooling incident and an ECC failure: the simulator's
 * records and what the analytics and the correlator made of them (bounded, {@link CoolingAndEcc}'s
 * run, shared with ReplayLiveIT) are stored in the real TimescaleDB (the sink's writer);
 * {@code export} writes a bundle of the range; {@code analyze --in DIR} gives the
 * same incidents (fingerprints, members, pages, starts within a minute); {@code backtest DIR} scores
 * recall 1.00 against the recorded anomalies; {@code incident export ID} cuts the cooling incident.
 */
class BundleLoopIT {
  static final String SCENARIO = CoolingAndEcc.SCENARIO;

  @Test
  void exportThenAnalyzeAndBacktestReproduceTheRecordedIncidents(@TempDir Path tmp) throws Exception {
    // the scenario, scored on its ground truth, and what the pipeline made of it
    BundleReader scenario = CoolingAndEcc.bundle();
    BacktestCommand.Outcome live = CoolingAndEcc.bounded();
    assertThat(live.rows()).filteredOn(r -> r.labels() > 0).isNotEmpty()
        .allSatisfy(r -> assertThat(r.recall()).as(r.alertname()).isEqualTo(1.0));
    List<Alert> recorded = live.produced().stream().filter(l -> l.topic().equals(Topics.ALERTS)).map(l -> (Alert) l.value()).toList();
    var recordedIncidents = IncidentSummary.of(recorded);
    assertThat(recordedIncidents.values()).extracting(IncidentSummary::alertname)
        .contains("CoolantFlowLow", "GpuEccUncorrectable");

    // stored as the sink stores it
    LocalPostgres pg = TestServices.postgres();
    String jdbc = pg.createDatabase("bundle_loop");
    try (Connection c = new Database(jdbc, LocalPostgres.SUPERUSER, "", "").open()) {
      Migrator.migrate(c);
      List<SpecificRecord> all = new ArrayList<>();
      for (BundleFile f : scenario.manifest().files()) {
        if (f.isAvro()) {
          all.addAll(scenario.records(f));
        }
      }
      live.produced().stream().map(JsonLines.Line::value).forEach(all::add);
      store(c, all);
    }
    Map<String, String> env = Map.of("FLEETSCOPE_JDBC_URL", jdbc, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER);
    Manifest sm = scenario.manifest();

    // export -> bundle (to a margin after the scenario: the correlator releases held resolutions a flap hold later)
    // with the settings that produced it: the analytics' built-in value written out, the correlator's flap hold changed
    Path analyticsYaml = Files.writeString(tmp.resolve("analytics.yaml"), "pipeline:\n  out_of_orderness_ms: 5000\n");
    Path correlatorYaml = Files.writeString(tmp.resolve("correlator.yaml"), "correlator:\n  flap_hold_seconds: 30\n");
    Path exported = tmp.resolve("exported");
    String exportOut = run(env, "export", "--from", sm.from().toString(), "--to", sm.to().plusSeconds(300).toString(),
        "--out", exported.toString(), "--source", "timescaledb", "--analytics-config", analyticsYaml.toString(),
        "--correlator-config", correlatorYaml.toString());
    System.out.print(exportOut); // the size report
    BundleReader bundle = BundleReader.open(exported);
    assertThat(bundle.manifest().files()).filteredOn(BundleFile::isAvro)
        .allSatisfy(f -> assertThat(f.source()).isEqualTo(RecordSource.TIMESCALEDB));
    assertThat(bundle.manifest().filesOf(BundleRole.CONFIG)).extracting(BundleFile::file)
        .containsExactly(Manifest.ANALYTICS_CONFIG, Manifest.CORRELATOR_CONFIG);
    long deadLetters = live.produced().stream().filter(l -> l.topic().equals(Topics.DLQ))
        .filter(l -> BundleReader.ts(l) >= sm.from().toEpochMilli() && BundleReader.ts(l) < sm.to().plusSeconds(300).toEpochMilli()).count();
    assertThat(bundle.manifest().filesOf(BundleRole.DEAD_LETTERS)).singleElement()
        .satisfies(f -> assertThat(f.records()).isEqualTo(deadLetters));
    // every incident version and every anomaly comes back, those of episodes resolved after the range's end included
    // (the analytics resolve a held XID 10 minutes, a DBE an hour after it started)
    assertThat(bundle.lines(r -> r == BundleRole.ALERTS)).extracting(l -> version((Alert) l.value()))
        .containsExactlyInAnyOrderElementsOf(recorded.stream().map(BundleLoopIT::version).toList());
    List<String> anomalies = live.produced().stream().filter(l -> l.topic().equals(Topics.ANOMALIES))
        .map(l -> anomaly((io.fleetscope.avro.Anomaly) l.value())).toList();
    assertThat(bundle.lines(r -> r == BundleRole.ANOMALIES)).extracting(l -> anomaly((io.fleetscope.avro.Anomaly) l.value()))
        .containsExactlyInAnyOrderElementsOf(anomalies);

    // analyze --in DIR -> the same incidents
    Path analyzed = tmp.resolve("analyzed.jsonl");
    run(env, "analyze", "--in", exported.toString(), "--out", analyzed.toString(), "--now", String.valueOf(sm.to().toEpochMilli()));
    List<Alert> again = new ArrayList<>();
    for (String l : Files.readAllLines(analyzed)) {
      JsonLines.Line line = JsonLines.parse(l);
      if (line.topic().equals(Topics.ALERTS)) {
        again.add((Alert) line.value());
      }
    }
    IncidentDiff diff = IncidentDiff.of(IncidentSummary.of(bundle.lines(r -> r == BundleRole.ALERTS).stream()
        .map(l -> (Alert) l.value()).toList()), IncidentSummary.of(again), 60_000);
    assertThat(diff.same()).as(diff.table()).isTrue();
    assertThat(IncidentSummary.of(again)).isEqualTo(recordedIncidents);

    // backtest DIR -> recall 1.00 against the recorded anomalies, no incident appears or disappears
    String out = run(env, "backtest", exported.toString());
    String total = out.lines().filter(l -> l.startsWith("TOTAL")).findFirst().orElseThrow();
    String[] cols = total.trim().split("\\s+");
    assertThat(cols[cols.length - 1]).as(out).isEqualTo("1.00"); // recall
    assertThat(cols[cols.length - 2]).as(out).isEqualTo("1.00"); // precision
    assertThat(out).doesNotContain("+ appears", "- disappears", "~ changed");
    // today's settings against those the bundle recorded
    assertThat(out).contains("backtest settings=analytics against=" + Manifest.ANALYTICS_CONFIG + " same",
        "backtest settings=correlator against=" + Manifest.CORRELATOR_CONFIG
            + " 1 difference: correlator.flap_hold_seconds: bundle=30 now=60");

    // incident export ID -> the cooling incident's bundle, with its versions and members
    IncidentSummary cooling = recordedIncidents.values().stream().filter(i -> i.alertname().equals("CoolantFlowLow"))
        .findFirst().orElseThrow();
    Path inc = tmp.resolve("cooling");
    String incOut = run(env, "incident", "export", cooling.fingerprint(), "--out", inc.toString(), "--source", "timescaledb");
    assertThat(incOut).contains("export settings analytics=none correlator=none");
    BundleReader incident = BundleReader.open(inc);
    assertThat(incident.manifest().incident()).isEqualTo(cooling.fingerprint());
    assertThat(incident.lines(r -> r == BundleRole.ALERTS)).extracting(l -> ((Alert) l.value()).getFingerprint())
        .containsOnly(cooling.fingerprint());
    assertThat(incident.lines(r -> r == BundleRole.ANOMALIES)).extracting(l -> ((io.fleetscope.avro.Anomaly) l.value()).getFingerprint())
        .containsAll(cooling.members());
  }

  /** An incident version as the sink keys it, with what a lost or altered version would change. */
  private static String version(Alert a) {
    return a.getFingerprint() + " v" + a.getVersion() + " " + a.getStatus() + " ts=" + a.getTs() + " members=" + a.getMembers();
  }

  private static String anomaly(io.fleetscope.avro.Anomaly a) {
    return a.getFingerprint() + " " + a.getStatus() + " ts=" + a.getTs() + " starts=" + a.getStartsAt() + " ends=" + a.getEndsAt();
  }

  private static void store(Connection c, List<SpecificRecord> records) throws Exception {
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    for (SpecificRecord r : records) {
      String topic = Topics.all().values().stream().filter(t -> t.valueClass().isInstance(r)).findFirst().orElseThrow().name();
      batch.add(new SinkRecord(topic, 0, offset++, null, null, r));
    }
    c.setAutoCommit(false);
    BatchWriter.Result res = new BatchWriter().write(c, batch);
    c.commit();
    assertThat(res.rejects()).isEmpty();
  }

  private static String run(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        env).execute(args);
    assertThat(code).as(Arrays.toString(args) + ": " + err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }
}
