package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A trajectory-only risk is earned over consecutive assessments; critical also needs a hot GPU. */
class TrendPersistenceTest {
  private final ThermalRiskSettings cfg = ThermalRiskSettings.defaults();

  @Test
  void warningAfterThreeConsecutiveAssessmentsCriticalAfterSixWithin15C() {
    TrendPersistence p = new TrendPersistence();
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 10.0, cfg)))).isEqualTo("watch");
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 10.0, cfg)))).isEqualTo("watch");
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 10.0, cfg)))).isEqualTo("warning");
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 10.0, cfg)))).isEqualTo("warning");
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 10.0, cfg)))).isEqualTo("warning");
    assertThat(p.offer(0.9, 10.0, cfg)).isEqualTo(0.9);
  }

  @Test
  void aBreakRestartsTheCountAndFarFromSlowdownItStaysAWarning() {
    TrendPersistence p = new TrendPersistence();
    p.offer(0.9, 20.0, cfg);
    p.offer(0.9, 20.0, cfg);
    assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.0, 20.0, cfg)))).isEqualTo("ok");
    for (int i = 0; i < 2; i++) {
      assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.9, 20.0, cfg)))).isEqualTo("watch");
    }
    for (int i = 0; i < 10; i++) {
      assertThat(cfg.level(ThermalRiskModel.round(p.offer(0.95, 20.0, cfg)))).isEqualTo("warning");
    }
  }
}
