package io.fleetscope.flink.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class FleetHygieneTest {
  private final FleetHygieneSettings cfg = FleetHygieneSettings.defaults();
  private final ModelRanking ranking = new ModelRanking(cfg.slowestFirst());
  /** n1, n2: H100; n3: H200; gpu 7 of n4 is an A100 (a swapped board), the rest H200. */
  private final BiFunction<String, Integer, String> models = (node, gpu) -> switch (node) {
    case "n1", "n2" -> "NVIDIA H100 80GB HBM3";
    case "n3" -> "NVIDIA H200";
    case "n4" -> gpu == 7 ? "NVIDIA A100-SXM4-80GB" : "NVIDIA H200";
    default -> null;
  };

  @Test
  void rankingMatchesFamiliesInModelStrings() {
    assertThat(ranking.rank("NVIDIA A100-SXM4-80GB")).isLessThan(ranking.rank("NVIDIA H100 80GB HBM3"));
    assertThat(ranking.rank("NVIDIA H100 80GB HBM3")).isLessThan(ranking.rank("NVIDIA H200"));
    assertThat(ranking.rank("NVIDIA GB200")).isGreaterThan(ranking.rank("NVIDIA B200"));
    assertThat(ranking.rank("Intel Gaudi3")).isEqualTo(ranking.rank("Gaudi 3"));
    assertThat(ranking.slowest(List.of("NVIDIA H200", "NVIDIA H100 80GB HBM3"))).isEqualTo("NVIDIA H100 80GB HBM3");
  }

  @Test
  void uniformJobIsQuiet() {
    JobModelMix mix = new JobModelMix(ranking);
    assertThat(mix.onAllocation("c1", "llm", "n1", List.of(0, 1, 2, 3, 4, 5, 6, 7), models)).isEmpty();
    assertThat(mix.onAllocation("c1", "llm", "n2", List.of(0, 1, 2, 3, 4, 5, 6, 7), models)).isEmpty();
  }

  @Test
  void jobSpanningModelsFiresNamingTheSlowestAndResolvesWhenItLeaves() {
    JobModelMix mix = new JobModelMix(ranking);
    mix.onAllocation("c1", "llm", "n1", List.of(0, 1, 2, 3), models);
    List<AlertChange> fire = mix.onAllocation("c1", "llm", "n3", List.of(0, 1, 2, 3), models);
    assertThat(fire).singleElement().satisfies(c -> {
      assertThat(c.alertname()).isEqualTo("JobMixedGpuModels");
      assertThat(c.firing()).isTrue();
      assertThat(c.value()).isEqualTo(2.0);
      assertThat(c.labels()).containsEntry("job", "llm").containsEntry("models", "NVIDIA H100 80GB HBM3,NVIDIA H200");
      assertThat(c.summary()).contains("bounded by NVIDIA H100 80GB HBM3");
      assertThat(c.description()).contains("4x NVIDIA H100 80GB HBM3 (e.g. n1)").contains("4x NVIDIA H200 (e.g. n3)");
    });
    assertThat(mix.onAllocation("c1", "llm", "n3", List.of(), models)).singleElement()
        .satisfies(c -> assertThat(c.firing()).isFalse());
    assertThat(mix.firing()).isFalse();
  }

  @Test
  void oneSwappedBoardIsFound() {
    JobModelMix mix = new JobModelMix(ranking);
    assertThat(mix.onAllocation("c1", "llm", "n3", List.of(0, 1, 2, 3, 4, 5, 6, 7), models)).isEmpty();
    List<AlertChange> fire = mix.onAllocation("c1", "llm", "n4", List.of(0, 1, 2, 3, 4, 5, 6, 7), models);
    assertThat(fire).singleElement().satisfies(c -> assertThat(c.summary()).contains("NVIDIA A100-SXM4-80GB"));
    // the job moves off the A100 but not off n4
    assertThat(mix.onAllocation("c1", "llm", "n4", List.of(0, 1, 2, 3, 4, 5, 6), models)).singleElement()
        .satisfies(c -> assertThat(c.firing()).isFalse());
  }

  @Test
  void unknownModelsAreNotCountedAsDifferent() {
    JobModelMix mix = new JobModelMix(ranking);
    mix.onAllocation("c1", "llm", "n1", List.of(0), models);
    assertThat(mix.onAllocation("c1", "llm", "n9", List.of(0), models)).isEmpty();
  }

  @Test
  void staleSourceFiresAtTheDeadlineAndResolvesOnTheNextRecord() {
    StaleSource s = new StaleSource(cfg.staleAfterMs("gpu"));
    Map<String, String> l = Map.of("cluster", "c1", "node", "n1", "stream", "gpu");
    assertThat(s.onWatermark(1_000, l)).as("never seen: nothing to say").isEmpty();
    assertThat(s.onRecord(0, l)).isEmpty();
    assertThat(s.onRecord(10_000, l)).isEmpty();
    assertThat(s.deadline()).isEqualTo(130_000);
    assertThat(s.onWatermark(129_999, l)).isEmpty();
    Optional<AlertChange> fire = s.onWatermark(130_000, l);
    assertThat(fire).hasValueSatisfying(c -> {
      assertThat(c.alertname()).isEqualTo("TelemetryStale");
      assertThat(c.firing()).isTrue();
      assertThat(c.value()).isEqualTo(120.0);
      assertThat(c.summary()).isEqualTo("No gpu telemetry from node n1");
    });
    assertThat(s.onWatermark(200_000, l)).as("fires once").isEmpty();
    assertThat(s.onRecord(5_000, l)).as("a late old record is no recovery").isEmpty();
    assertThat(s.onRecord(300_000, l)).hasValueSatisfying(c -> assertThat(c.firing()).isFalse());
    assertThat(s.stale()).isFalse();
  }

  @Test
  void aSourceSendingJustLessOftenThanItsLimitIsOneStaleAlert() {
    StaleSource s = cfg.staleSource("gpu");
    Map<String, String> l = Map.of("cluster", "c1", "node", "n1", "stream", "gpu");
    List<AlertChange> all = new ArrayList<>();
    // a record every 125 s (limit 120 s) for 10 minutes; the watermark moves on every second
    for (long ts = 0; ts <= 600_000; ts += 1_000) {
      if (ts % 125_000 == 0) {
        s.onRecord(ts, l).ifPresent(all::add);
      }
      s.onWatermark(ts, l).ifPresent(all::add);
    }
    assertThat(all).singleElement().satisfies(c -> assertThat(c.firing()).isTrue());
    // then every second again: back once the records have come regularly for 30 s
    for (long ts = 601_000; ts <= 700_000; ts += 1_000) {
      s.onRecord(ts, l).ifPresent(all::add);
      s.onWatermark(ts, l).ifPresent(all::add);
    }
    assertThat(all).hasSize(2);
    assertThat(all.get(1).firing()).isFalse();
    assertThat(s.stale()).isFalse();
  }

  @Test
  void aSourceThatComesBackResolvesAfterTheHold() {
    StaleSource s = cfg.staleSource("gpu");
    Map<String, String> l = Map.of("cluster", "c1", "node", "n1", "stream", "gpu");
    s.onRecord(0, l);
    assertThat(s.onWatermark(120_000, l)).hasValueSatisfying(c -> assertThat(c.firing()).isTrue());
    assertThat(s.onRecord(300_000, l)).as("the first record after the silence ends it, the hold starts with the next").isEmpty();
    for (long ts = 301_000; ts < 331_000; ts += 1_000) {
      assertThat(s.onRecord(ts, l)).as("at %d", ts).isEmpty();
    }
    assertThat(s.onRecord(331_000, l)).hasValueSatisfying(c -> assertThat(c.firing()).isFalse());
  }

  @Test
  void perStreamStaleLimit() {
    FleetHygieneSettings s = new FleetHygieneSettings(120, Map.of("pdu", 300L), cfg.slowestFirst(), 10_000, 50, 30);
    assertThat(s.staleAfterMs("pdu")).isEqualTo(300_000);
    assertThat(s.staleAfterMs("gpu")).isEqualTo(120_000);
  }
}
