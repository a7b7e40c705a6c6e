package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.thermal.Samples.gpu;
import static io.fleetscope.flink.thermal.Samples.h100;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ThermalRiskModelTest {
  private final ThermalRiskModel model = new ThermalRiskModel(ThermalRiskSettings.defaults());
  private final CoolingContext normal = new CoolingContext("loop-a", 30.0, 40.0, 120.0, 30.0, 9.0, 15.0);

  @Test
  void healthyGpuIsOkWithNoPrediction() {
    ThermalAssessment a = model.assess(gpu(0, 60).build(), h100(), flat(60), normal);
    assertThat(a.score()).isZero();
    assertThat(a.level()).isEqualTo("ok");
    assertThat(a.secondsToThrottle()).isNull();
    assertThat(a.headroomC()).isEqualTo(27.0);
    assertThat(a.powerRatio()).isCloseTo(450.0 / 700, within(1e-6));
  }

  private static TrendEstimate flat(double tempC) {
    return new TrendEstimate(TrendEstimate.Shape.FLAT, tempC, 0, 0, 120, null, null);
  }

  @Test
  void acceleratingTemperaturePredictsTimeToSlowdownFromItsSlope() {
    // 75 C, slowdown 87 C: 12 C headroom at +2 C/min = 360 s; trend risk 1 - 360/900 = 0.6
    ThermalAssessment a = model.assess(gpu(0, 75).build(), h100(),
        new TrendEstimate(TrendEstimate.Shape.ACCELERATING, 75, 2.0 / 60, 0, 120, null, null), normal);
    assertThat(a.secondsToThrottle()).isCloseTo(360.0, within(1e-6));
    assertThat(a.score()).isCloseTo(0.6, within(1e-6));
    assertThat(a.level()).isEqualTo("warning");
    assertThat(a.driver()).isEqualTo("gpu_temp");
    assertThat(a.slopeCPerMin()).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void settlingAboveSlowdownPredictsTheExponentialApproach() {
    // 75 C settling at 99 C with tau 60 s: slowdown 87 C is halfway, 60 ln 2 = 41.6 s away
    ThermalAssessment a = model.assess(gpu(0, 75).build(), h100(),
        new TrendEstimate(TrendEstimate.Shape.SETTLING, 75, 24.0 / 60, -0.2 / 60, 120, 60.0, 99.0), normal);
    assertThat(a.secondsToThrottle()).isCloseTo(60 * Math.log(2), within(1e-5));
    assertThat(a.level()).isEqualTo("critical");
    assertThat(a.steadyStateC()).isEqualTo(99.0);
  }

  @Test
  void settlingBelowSlowdownHasNoPrediction() {
    // warming fast (13.5 C/min) but towards 62 C: a job starting, not a runaway
    ThermalAssessment a = model.assess(gpu(0, 50).build(), h100(),
        new TrendEstimate(TrendEstimate.Shape.SETTLING, 50, 0.225, -0.0021, 120, 53.3, 62.0), normal);
    assertThat(a.secondsToThrottle()).isNull();
    assertThat(a.score()).isZero();
  }

  @Test
  void flatTemperatureFarFromSlowdownHasNoHeadroomRisk() {
    ThermalAssessment a = model.assess(gpu(0, 82).build(), h100(), flat(82), normal);
    assertThat(a.secondsToThrottle()).isNull();
    assertThat(a.score()).isZero();
    assertThat(a.level()).isEqualTo("ok");
  }

  @Test
  void headroomAloneCountsOnlyCloseToSlowdown() {
    // headroom_scale_c 5: 2 C below slowdown is a warning (0.6), 0.5 C below is critical (0.9)
    assertThat(model.assess(gpu(0, 85).build(), h100(), flat(85), normal).level()).isEqualTo("warning");
    assertThat(model.assess(gpu(0, 86.5).build(), h100(), flat(86.5), normal).level()).isEqualTo("critical");
    assertThat(model.assess(gpu(0, 84).build(), h100(), flat(84), normal).level()).isEqualTo("watch");
  }

  @Test
  void atSlowdownTemperatureIsCriticalWithZeroSeconds() {
    ThermalAssessment a = model.assess(gpu(0, 88).build(), h100(), null, normal);
    assertThat(a.score()).isEqualTo(1.0);
    assertThat(a.level()).isEqualTo("critical");
    assertThat(a.secondsToThrottle()).isZero();
  }

  @Test
  void hotHbmDrives() {
    ThermalAssessment a = model.assess(gpu(0, 60).setMemTempC(93.0).build(), h100(), null, normal);
    assertThat(a.driver()).isEqualTo("hbm_temp");
    assertThat(a.score()).isCloseTo(0.6, within(1e-6)); // 2 C below its max: 1 - 2/5
    assertThat(a.level()).isEqualTo("warning");
  }

  @Test
  void powerAtLimitDrivesAtPowerWeight() {
    ThermalAssessment a = model.assess(gpu(0, 60).setPowerW(700.0).build(), h100(), null, normal);
    assertThat(a.driver()).isEqualTo("power_cap");
    assertThat(a.score()).isCloseTo(0.7, within(1e-6));
  }

  @Test
  void missingPowerLimitFallsBackToTdp() {
    ThermalAssessment a = model.assess(gpu(0, 60).setPowerLimitW(null).setPowerW(665.0).build(), h100(), null, normal);
    assertThat(a.powerRatio()).isCloseTo(0.95, within(1e-6));
    assertThat(a.score()).isCloseTo(0.35, within(1e-6));
  }

  @Test
  void facilityDriversNameTheCause() {
    assertThat(model.assess(gpu(0, 60).build(), h100(), null,
        new CoolingContext("loop-a", 41.0, 40.0, 120.0, 30.0, 9.0, 15.0)).driver()).isEqualTo("coolant_supply_temp");
    ThermalAssessment flow = model.assess(gpu(0, 60).build(), h100(), null,
        new CoolingContext("loop-a", 30.0, 40.0, 30.0, 30.0, 9.0, 15.0));
    assertThat(flow.driver()).isEqualTo("coolant_flow");
    assertThat(flow.score()).isCloseTo(0.75, within(1e-6));
    ThermalAssessment rack = model.assess(gpu(0, 60).build(), h100(), null,
        new CoolingContext("loop-a", 30.0, 40.0, 120.0, 30.0, 16.5, 15.0));
    assertThat(rack.driver()).isEqualTo("rack_power");
    assertThat(rack.level()).isEqualTo("warning");
  }

  @Test
  void thermalSlowdownBitIsCriticalThrottling() {
    ThermalAssessment a = model.assess(gpu(0, 70).setThrottleReasons(ThrottleReasons.HW_THERMAL).build(), h100(),
        null, normal);
    assertThat(a.driver()).isEqualTo("throttling");
    assertThat(a.level()).isEqualTo("critical");
  }

  @Test
  void unknownLimitsGiveNoHeadroom() {
    ThermalAssessment a = model.assess(gpu(0, 95).build(), GpuThermalLimits.unknown(),
        new TrendEstimate(TrendEstimate.Shape.ACCELERATING, 95, 1.0, 0.01, 120, null, null), CoolingContext.none());
    assertThat(a.headroomC()).isNull();
    assertThat(a.secondsToThrottle()).isNull();
    assertThat(a.level()).isEqualTo("ok");
  }

  @Test
  void badSettingsAreRefusedWithTheKey() {
    assertThatThrownBy(() -> new ThermalRiskSettings(300, 3, 30, 0.1, 900, 20, 10, 0.9, 0.7, 0.75, 5, 20, 0.9, 120,
        0.6, 0.3, 0.85, 10_000, 85.0, 95.0, 120, 2, 4, 2, 0.5, 0.2, 5, 8, 0.15, 60, 60, 3, 6, 15, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watch < warning");
    assertThatThrownBy(() -> new ThermalRiskSettings(0, 3, 0, 0.1, 900, 20, 10, 0.9, 0.7, 0.75, 5, 20, 0.9, 120,
        0.3, 0.6, 0.85, 10_000, 85.0, 95.0, 120, 2, 4, 2, 0.5, 0.2, 5, 8, 0.15, 60, 60, 3, 6, 15, null))
        .hasMessageContaining("slope_window_s");
    assertThatThrownBy(() -> new ThermalRiskSettings(120, 5, 30, 1.0, 900, 5, 10, 0.9, 0.7, 0.75, 5, 20, 0.9, 120,
        0.3, 0.6, 0.85, 10_000, 85.0, 95.0, 120, 2, 4, 2, 0.5, 0.2, 5, 8, 0.7, 60, 60, 3, 6, 15, null))
        .hasMessageContaining("resolve_margin");
    assertThatThrownBy(() -> new ThermalRiskSettings(120, 5, 30, 1.0, 900, 5, 10, 0.9, 0.7, 0.75, 5, 20, 0.9, 120,
        0.3, 0.6, 0.85, 10_000, 85.0, 95.0, 120, 2, 4, 2, 0.5, 0.2, 5, 8, 0.15, 60, 60, 4, 2, 15, null))
        .hasMessageContaining("trend_critical_assessments");
  }
}
