package io.fleetscope.loadgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.HealthySoak;
import io.fleetscope.loadgen.score.FiringAnomaly;
import io.fleetscope.loadgen.score.SoakScore;
import io.fleetscope.schemas.Topics;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's chunked analysis and its score. A stand-in analyzer "detects" every zero reading in
 * its input: over the chunks each one must be counted exactly once, although the chunks' warm-ups
 * overlap, and every chunk must start with the fleet's inventory and jobs.
 */
class SoakBenchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** Fires one warning per GPU sample that reads 0 C, at the sample's time; records what each chunk began with. */
  private static final class ZeroReadingAnalyzer implements Analyzer {
    final List<String> firstTopics = new ArrayList<>();

    @Override
    public void analyze(Path in, Path out) throws Exception {
      List<String> lines = Files.readAllLines(in);
      firstTopics.add(JSON.readTree(lines.get(0)).get("topic").asText());
      try (BufferedWriter w = Files.newBufferedWriter(out)) {
        for (String line : lines) {
          JsonNode n = JSON.readTree(line);
          JsonNode v = n.get("value");
          if (n.get("topic").asText().equals(Topics.GPU) && v.get("temp_c").asDouble() == 0) {
            String fp = v.get("node").asText() + "/" + v.get("gpu").asText();
            w.write(JSON.writeValueAsString(Map.of("status", "firing", "starts_at", v.get("ts").asLong(),
                "fingerprint", fp, "labels", Map.of("alertname", "ZeroReading", "severity", "warning",
                    "node", v.get("node").asText(), "gpu", v.get("gpu").asText()))));
            w.write('\n');
          }
        }
      }
    }

    @Override
    public String describe() {
      return "zero readings";
    }
  }

  @Test
  void everyAnomalyIsCountedOnceAcrossOverlappingChunks() throws Exception {
    SoakBench.Options o = new SoakBench.Options(Duration.ofHours(3), Duration.ofSeconds(10), 8, 5,
        Duration.ofMinutes(40), Duration.ofMinutes(10), dir);
    ZeroReadingAnalyzer analyzer = new ZeroReadingAnalyzer();
    SoakBench bench = new SoakBench(o, analyzer);
    long zeros = bench.config().scenario().faults().stream()
        .filter(f -> f.type() == FaultType.SENSOR_GLITCH && f.param("kind", "").equals("zero")).count();
    assertThat(zeros).isPositive();
    SoakBench.Result r = bench.run();
    assertThat(r.chunks()).isEqualTo(5);
    assertThat(analyzer.firstTopics).hasSize(5).containsOnly(Topics.INVENTORY);
    assertThat(r.score().firing()).hasSize((int) zeros);
    assertThat(r.score().firing().stream().map(a -> a.fingerprint() + "@" + a.startsAt()).distinct()).hasSize((int) zeros);
    assertThat(r.score().gpus()).isEqualTo(64);
    assertThat(r.records()).isGreaterThan(1080L * 128);
    assertThat(Files.list(dir).filter(p -> p.toString().endsWith("soak-0.jsonl"))).isEmpty();
  }

  @Test
  void onlyTheChunksAskedForAreAnalyzedAndScoredAndTheirInputIsKeptOnRequest() throws Exception {
    SoakBench.Options o = new SoakBench.Options(Duration.ofHours(3), Duration.ofSeconds(10), 8, 5,
        Duration.ofMinutes(40), Duration.ofMinutes(10), dir, java.util.Set.of(1, 3), true);
    ZeroReadingAnalyzer analyzer = new ZeroReadingAnalyzer();
    SoakBench bench = new SoakBench(o, analyzer);
    SoakBench.Result r = bench.run();
    assertThat(r.chunks()).isEqualTo(2);
    assertThat(r.score().gpuDays()).isCloseTo(64 * 80.0 / (24 * 60), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(Files.exists(dir.resolve("soak-1.jsonl"))).isTrue();
    assertThat(Files.exists(dir.resolve("soak-3.jsonl"))).isTrue();
    assertThat(Files.exists(dir.resolve("soak-0.jsonl"))).isFalse();
    long from1 = SoakBench.START.toEpochMilli() + 40 * 60_000L;
    assertThat(r.score().firing()).allMatch(a -> a.startsAt() >= from1 && a.startsAt() < from1 + 40 * 60_000L
        || a.startsAt() >= from1 + 80 * 60_000L && a.startsAt() < from1 + 120 * 60_000L);
  }

  @Test
  void soakScoreCountsPagesAndWarningsPerThousandGpuDays() {
    List<FiringAnomaly> firing = List.of(
        anomaly("GpuThermalThrottleRisk", "warning", 1000),
        anomaly("GpuThermalThrottleRisk", "warning", 2000),
        anomaly("CheckpointSlow", "warning", 3000),
        anomaly("GpuEccUncorrectable", "critical", 4000),
        anomaly("GpuPeerOutlier", "info", 5000));
    SoakScore s = new SoakScore(1000, 2 * 86_400_000L, firing);
    assertThat(s.gpuDays()).isEqualTo(2000.0);
    assertThat(s.pages()).isEqualTo(1);
    assertThat(s.count(SoakScore.WARNING)).isEqualTo(3);
    assertThat(s.warningsPer1000GpuDays()).isEqualTo(1.5);
    assertThat(s.byAlertAndSeverity()).containsExactly(Map.entry("CheckpointSlow warning", 1L),
        Map.entry("GpuEccUncorrectable critical", 1L), Map.entry("GpuPeerOutlier info", 1L),
        Map.entry("GpuThermalThrottleRisk warning", 2L));
    String report = s.report(0, 2);
    assertThat(report).contains("1 critical (pages), 3 warnings = 1.50 warnings per 1,000 GPU-days")
        .contains("+0h00m01s").contains("... 3 more");
  }

  @Test
  void theDefaultSoakIsAThousandGpusAtTenSecondSamples() {
    SoakBench.Options o = SoakBench.Options.defaults(Duration.ofHours(24), dir);
    assertThat(o.nodes() * 8).isEqualTo(1000);
    assertThat(o.nodes()).isEqualTo(HealthySoak.DEFAULT_NODES);
    assertThat(o.interval()).isEqualTo(Duration.ofSeconds(10));
  }

  private static FiringAnomaly anomaly(String name, String severity, long at) {
    return new FiringAnomaly(name, Map.of("alertname", name, "severity", severity, "node", "gpu-0001"), at, name + at);
  }
}
