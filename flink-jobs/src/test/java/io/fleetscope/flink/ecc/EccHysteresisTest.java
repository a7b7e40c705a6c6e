package io.fleetscope.flink.ecc;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * GpuEccCorrectableRising resolves only below sbe_rate_per_h x sbe_clear_fraction: a corrected-error
 * rate hovering at its limit is one alert. Small windows (1 min ticks, 3 min short, 6 min long
 * window) so that the rate can be steered tick by tick: 2 and 1 new errors per tick in turn give
 * 100/h and 80/h over the short window, either side of a 90/h limit.
 */
class EccHysteresisTest {
  private static final XidCatalog XIDS = XidCatalog.load();
  private static final AnomalyFactory F = new AnomalyFactory("test");
  private static final GpuEccAnalyzer.Where W = new GpuEccAnalyzer.Where("c1", "n1", 0, "r1");

  private static EccConfig config(double clearFraction) {
    return new EccConfig(60_000, 180_000, 360_000, 90, clearFraction, 3_600_000, 60, 600_000, 3_600_000);
  }

  /** Ticks 0..hoverEnd-1 hover (2, 1, 2, 1 ... errors per tick), then none until {@code ticks}. */
  private static List<String> run(EccConfig cfg, int hoverEnd, int ticks) {
    GpuEccAnalyzer a = new GpuEccAnalyzer();
    List<String> seen = new ArrayList<>();
    long sbe = 0;
    for (int i = 0; i < ticks; i++) {
      if (i > 0 && i < hoverEnd) {
        sbe += i % 2 == 0 ? 2 : 1;
      }
      List<SpecificRecord> records = List.of(Fleet.gpu("n1", 0, Fleet.t(i * 60L + 30), i).setEccSbeTotal(sbe).build());
      List<Anomaly> out = new ArrayList<>();
      a.tick(Fleet.t((i + 1) * 60L), records, W, cfg, XIDS, F, out);
      for (Anomaly x : out) {
        if (x != null) {
          seen.add(i + " " + x.getLabels().get("alertname") + " " + x.getStatus());
        }
      }
    }
    return seen;
  }

  @Test
  void aRateHoveringAtItsLimitFor10MinutesIsOneAlertAndResolvesWhenTheErrorsStop() {
    // hovering from tick 1 to 60, none from tick 60: the short window has emptied by tick 62
    assertThat(run(config(0.5), 60, 70)).containsExactly("4 GpuEccCorrectableRising firing",
        "61 GpuEccCorrectableRising resolved");
  }

  @Test
  void withoutAMarginTheSameRateFlaps() {
    assertThat(run(config(1.0), 60, 70)).as("what the clear fraction prevents").hasSizeGreaterThan(20);
  }
}
