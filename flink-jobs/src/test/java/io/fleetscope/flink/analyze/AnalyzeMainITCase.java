package io.fleetscope.flink.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.flink.ecc.EccScenario;
import io.fleetscope.flink.io.OutputRouting;
import io.fleetscope.flink.rail.RailScenario;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code analyze --in FILE --out FILE} end to end on a JSON-lines file with good and bad lines. */
class AnalyzeMainITCase {
  @TempDir
  Path dir;

  private Path input() throws Exception {
    List<String> lines = new ArrayList<>();
    List<SpecificRecord> recs = new ArrayList<>(RailScenario.records(true));
    recs.addAll(EccScenario.records(true));
    for (SpecificRecord r : recs) {
      lines.add(JsonLines.toJson(new JsonLines.Line(OutputRouting.topicOf(r), OutputRouting.keyOf(r), r)));
    }
    lines.add(3, "this is not json");
    lines.add(5, "{\"topic\":\"fleet.nope.v1\",\"key\":\"x\",\"value\":{}}");
    lines.add(7, lines.get(8).replace("\"port\":1", "\"port\":\"one\""));
    lines.add("");
    Path in = dir.resolve("in.jsonl");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("cfg.yaml"), """
        ecc:
          short_window_ms: 600000
          long_window_ms: 3600000
          dbe_quiet_ms: 600000
          xid_quiet_ms: 300000
        """);
    return in;
  }

  private List<JsonLines.Line> analyze(Path in, Path out, String only) throws Exception {
    List<String> args = new ArrayList<>(List.of("--in", in.toString(), "--out", out.toString(),
        "--config", dir.resolve("cfg.yaml").toString(), "--now", String.valueOf(Runs.CLOCK.now())));
    if (only != null) {
      args.addAll(List.of("--only", only));
    }
    AnalyzeMain.main(args.toArray(new String[0]));
    return Files.readAllLines(out).stream().map(JsonLines::parse).toList();
  }

  @Test
  void writesAnomaliesDerivedRecordsAndDeadLettersReproducibly() throws Exception {
    Path in = input();
    List<JsonLines.Line> first = analyze(in, dir.resolve("a.jsonl"), "rail,ecc");
    analyze(in, dir.resolve("b.jsonl"), "rail,ecc");
    assertThat(Files.readAllBytes(dir.resolve("a.jsonl"))).isEqualTo(Files.readAllBytes(dir.resolve("b.jsonl")));

    List<Anomaly> anomalies = Runs.anomalies(first);
    assertThat(anomalies).hasSize(9 + 10);
    assertThat(first).extracting(JsonLines.Line::topic)
        .contains("fleet.rail.bw.v1", "fleet.ecc.trend.v1", "fleet.anomalies.v1", "fleet.dlq.v1");
    List<DeadLetter> dlq = first.stream().filter(l -> l.value() instanceof DeadLetter).map(l -> (DeadLetter) l.value()).toList();
    assertThat(dlq).extracting(DeadLetter::getReason)
        .anyMatch(r -> r.contains("in.jsonl line 4") && r.contains("not JSON"))
        .anyMatch(r -> r.contains("in.jsonl line 6") && r.contains("fleet.nope.v1"))
        .anyMatch(r -> r.contains("in.jsonl line 8"));
    assertThat(dlq).hasSize(3).allMatch(d -> d.getTs() == Runs.CLOCK.now() && d.getPayloadJson() != null);
    // sorted by topic, then time
    List<String> topics = first.stream().map(JsonLines.Line::topic).toList();
    assertThat(topics).isSorted();
  }

  @Test
  void everyAnalyticRunsTogetherOverTheSameFile() throws Exception {
    List<JsonLines.Line> all = analyze(input(), dir.resolve("all.jsonl"), null);
    List<String> names = Runs.anomalies(all).stream().map(a -> a.getLabels().get("alertname")).distinct().toList();
    assertThat(names).contains("IbLinkDown", "IbLinkDegraded", "IbSymbolErrors", "RailImbalance",
        "GpuEccUncorrectable", "GpuEccCorrectableRising", "GpuRowRemapFailure", "GpuXid");
  }
}
