package io.fleetscope.flink.ecc;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The ECC state of a GPU goes into every checkpoint: compact, and the same analysis after a restore. */
class GpuEccAnalyzerStateTest {
  private static final EccConfig CFG = EccScenario.config().section("ecc", EccConfig.class);
  private static final XidCatalog XIDS = XidCatalog.load();
  private static final AnomalyFactory F = new AnomalyFactory("test");
  private static final GpuEccAnalyzer.Where W = new GpuEccAnalyzer.Where("c1", "n1", 1, "r7");

  /** GPU 1's records of the scenario, by tick (1 minute). */
  private static List<List<SpecificRecord>> ticks() {
    List<List<SpecificRecord>> ticks = new ArrayList<>();
    for (int i = 0; i < 180; i++) ticks.add(new ArrayList<>());
    for (SpecificRecord r : EccScenario.records(true)) {
      long ts;
      if (r instanceof GpuSample g && g.getGpu() == 1) {
        ts = g.getTs();
      } else if (r instanceof GpuXid x && x.getGpu() == 1) {
        ts = x.getTs();
      } else {
        continue;
      }
      ticks.get((int) ((ts - EccScenario.m(0)) / EccScenario.MIN)).add(r);
    }
    return ticks;
  }

  private static List<String> run(GpuEccAnalyzer a, List<List<SpecificRecord>> ticks, int from, int to) {
    return run(a, ticks, from, to, CFG);
  }

  private static List<String> run(GpuEccAnalyzer a, List<List<SpecificRecord>> ticks, int from, int to, EccConfig cfg) {
    List<String> seen = new ArrayList<>();
    for (int i = from; i < to; i++) {
      List<Anomaly> out = new ArrayList<>();
      GpuEccAnalyzer.TickResult t = a.tick(EccScenario.m(i + 1), ticks.get(i), W, cfg, XIDS, F, out);
      for (Anomaly x : out) {
        if (x != null) seen.add(i + " " + x.getLabels().get("alertname") + " " + x.getStatus());
      }
      seen.add(i + " trend " + (t.trend() == null ? null : t.trend().getSbeRatePerH() + "/" + t.trend().getSbeRateTrend()));
    }
    return seen;
  }

  @Test
  void aRestoredAnalyzerContinuesExactlyAsTheOriginal() throws Exception {
    List<List<SpecificRecord>> ticks = ticks();
    GpuEccAnalyzer original = new GpuEccAnalyzer();
    List<String> head = run(original, ticks, 0, 110); // in the middle of the corrected-error rise
    GpuEccAnalyzer restored = (GpuEccAnalyzer) JavaSerializableTypeInfo.copyBySerialization(original);

    List<String> expected = run(original, ticks, 110, 180);
    assertThat(run(restored, ticks, 110, 180)).isEqualTo(expected);
    assertThat(head).anyMatch(s -> s.contains("GpuEccCorrectableRising firing"));
    assertThat(expected).anyMatch(s -> s.contains("GpuEccUncorrectable firing"));
  }

  @Test
  void theErrorBucketsAreWrittenSparsely() throws Exception {
    EccConfig defaults = io.fleetscope.flink.core.AnalyticsConfig.defaults().section("ecc", EccConfig.class);
    assertThat(defaults.longWindowMs() / defaults.tickMs()).isEqualTo(360);
    GpuEccAnalyzer a = new GpuEccAnalyzer();
    run(a, ticks(), 0, 110, defaults);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(a);
    }
    // 360 buckets of 8 bytes were written whole: more than the whole analyzer now, with 20 of them
    // holding the rise, its last sample and the class descriptions
    assertThat(b.size()).isLessThan(360 * 8);
  }
}
