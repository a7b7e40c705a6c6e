package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * Configuration of the thermal-throttle risk model (config section {@code thermal}; each key is the
 * snake_case name of a component, documented with its default in
 * {@code analytics-defaults-thermal.yaml}; {@link #defaults()} holds the same values for tests).
 *
 * @param slopeWindowS temperature trajectory window, seconds: the quadratic fit of the trend covers at most
 *     this much of the current power segment ({@code slope_window_s}, 120)
 * @param slopeMinSamples samples the window needs before a trend is trusted ({@code slope_min_samples}, 5)
 * @param slopeMinSpanS time the window must span before a trend is trusted ({@code slope_min_span_s}, 60)
 * @param minRisingSlopeCelsiusPerMin slopes below this are "flat": no time to throttle ({@code min_rising_slope_celsius_per_min}, 2.0)
 * @param horizonS predicted time to slowdown at which the trend starts to count; 0 s counts fully ({@code horizon_s}, 900)
 * @param headroomScaleC GPU headroom to slowdown at which the headroom risk is 0; 0 C counts fully ({@code headroom_scale_c}, 5:
 *     headroom alone is a warning within 2 C of slowdown and critical within 0.75 C; further away only a rise heading
 *     for slowdown counts)
 * @param hbmHeadroomScaleC same for HBM against its max operating temperature ({@code hbm_headroom_scale_c}, 5: a warning within
 *     2 C of it)
 * @param powerRatioStart power / limit at which power starts to count ({@code power_ratio_start}, 0.9)
 * @param powerWeight risk when the GPU runs at its power limit ({@code power_weight}, 0.7)
 * @param facilityWeight risk when coolant or rack power sits exactly at its limit ({@code facility_weight}, 0.75)
 * @param coolantSupplyMarginC coolant supply this far below its max starts to count ({@code coolant_supply_margin_c}, 5)
 * @param coolantFlowMarginPct flow this far (percent) above its minimum starts to count ({@code coolant_flow_margin_pct}, 20)
 * @param rackPowerRatioStart rack kW / cooling capacity at which rack power starts to count ({@code rack_power_ratio_start}, 0.9)
 * @param contextMaxAgeS coolant/rack readings older than this (vs. the GPU sample) are ignored ({@code context_max_age_s}, 120)
 * @param watchLevel score from which the level is watch ({@code watch_level}, 0.3)
 * @param warningLevel score from which the level is warning and GpuThermalThrottleRisk fires ({@code warning_level}, 0.6)
 * @param criticalLevel score from which the level is critical ({@code critical_level}, 0.85)
 * @param tickMs GPU samples are evaluated per tick of this length; one ThermalRisk per GPU and tick ({@code tick_ms}, 10000)
 * @param fallbackSlowdownTempC slowdown temperature used when neither the inventory nor the catalog
 *     gives one ({@code fallback_slowdown_temp_c}, 85; null: no headroom without a known limit)
 * @param fallbackMemMaxTempC the same for the HBM maximum ({@code fallback_mem_max_temp_c}, 95)
 * @param maxTauS the slowest first-order response accepted as settling: a rise whose curvature is not yet known is
 *     assumed to settle at most at {@code temp + slope * max_tau_s} ({@code max_tau_s}, 120)
 * @param steadyStateMarginC a trajectory settling this close below slowdown counts as heading for it
 *     ({@code steady_state_margin_c}, 2)
 * @param trendZ a rise counts only when its slope is this many standard errors above 0 ({@code trend_z}, 4)
 * @param curvatureZ the trajectory is settling (or accelerating) only when its curvature is this many standard errors
 *     below (above) 0 ({@code curvature_z}, 2)
 * @param noiseFloorC the sensor noise assumed at least, C, so that whole-degree readings do not look exact, and the
 *     least an accelerating trajectory must have risen over its window ({@code noise_floor_c}, 0.5)
 * @param powerStepFraction a change of the smoothed power by this fraction of the power limit starts a new power
 *     segment: the trajectory is fitted only within one, as a job start or stop moves the steady state
 *     ({@code power_step_fraction}, 0.1)
 * @param powerSmoothingS time constant of the smoothed power, seconds ({@code power_smoothing_s}, 10)
 * @param glitchC a reading this far from the last accepted one is held back until the next reading confirms it; a
 *     one-sample glitch is dropped ({@code glitch_c}, 8)
 * @param resolveMargin a firing GpuThermalThrottleRisk resolves once the score stays below {@code warning_level}
 *     minus this margin ({@code resolve_margin}, 0.15) ...
 * @param resolveHoldS ... for this long, seconds ({@code resolve_hold_s}, 60); critical takes over from warning at
 *     once, a firing alert does not step down
 * @param throttleResolveHoldS GpuThrottling resolves only after its bits have been clear for this long, seconds
 *     ({@code throttle_resolve_hold_s}, 60); critical takes over from warning at once
 * @param trendWarningAssessments a prediction from the trajectory alone (the trend risk: no throttle bit, no facility
 *     driver, no headroom within {@code headroom_scale_c}) counts at warning only once it has reached warning in this
 *     many consecutive assessments ({@code trend_warning_assessments}, 3): one fit is not enough evidence
 * @param trendCriticalAssessments ... and at critical only once it has reached critical in this many consecutive
 *     assessments ({@code trend_critical_assessments}, 6) ...
 * @param trendCriticalHeadroomC ... and the GPU is within this many degrees of its slowdown temperature
 *     ({@code trend_critical_headroom_c}, 15): a page from a trajectory needs a short predicted time to slowdown that
 *     stays short and a GPU that is already hot; otherwise the trajectory is at most a warning
 * @param resistance the runaway signal from the GPU's own thermal model, where samples carry the energy counter
 *     ({@link Resistance}; section {@code resistance})
 */
public record ThermalRiskSettings(
    long slopeWindowS,
    int slopeMinSamples,
    long slopeMinSpanS,
    double minRisingSlopeCelsiusPerMin,
    double horizonS,
    double headroomScaleC,
    double hbmHeadroomScaleC,
    double powerRatioStart,
    double powerWeight,
    double facilityWeight,
    double coolantSupplyMarginC,
    double coolantFlowMarginPct,
    double rackPowerRatioStart,
    long contextMaxAgeS,
    double watchLevel,
    double warningLevel,
    double criticalLevel,
    long tickMs,
    Double fallbackSlowdownTempC,
    Double fallbackMemMaxTempC,
    double maxTauS,
    double steadyStateMarginC,
    double trendZ,
    double curvatureZ,
    double noiseFloorC,
    double powerStepFraction,
    double powerSmoothingS,
    double glitchC,
    double resolveMargin,
    long resolveHoldS,
    long throttleResolveHoldS,
    int trendWarningAssessments,
    int trendCriticalAssessments,
    double trendCriticalHeadroomC,
    Resistance resistance)
    implements Serializable {

  /**
   * The runaway signal from the GPU's own thermal model ({@link ThermalBaseline}), for GPUs whose samples carry the
   * cumulative energy counter (section {@code thermal.resistance}).
   *
   * @param energyMaxIntervalS an energy delta over a longer interval (a gap) gives no mean power
   *     ({@code energy_max_interval_s}, 30)
   * @param dieTauS the die's thermal time constant the model assumes, seconds ({@code die_tau_s}, 20)
   * @param learnS the model's memory: samples weigh {@code exp(-age / learn_s)} ({@code learn_s}, 3600)
   * @param minLearnS no excess is reported before the model has learned this long ({@code min_learn_s}, 120)
   * @param coverS ... nor at a power the model has seen for less than this ({@code cover_s}, 60)
   * @param trackS the model is pulled towards the reading with this time constant, seconds ({@code track_s}, 300)
   * @param learnMaxC the model does not learn from a sample whose excess is above this ({@code learn_max_c}, 1.5)
   * @param warningC excess (reading above the model), C, that makes the {@code thermal_resistance} driver a warning
   *     ({@code warning_c}, 3) ...
   * @param criticalC ... and critical ({@code critical_c}, 8), both for the mean excess over ...
   * @param holdS ... the samples of the last this many seconds ({@code hold_s}, 10: two samples at a 10 s interval,
   *     eleven at 1 s; a healthy GPU's excess above 2.5 C came in single samples, a runaway's keeps growing)
   */
  public record Resistance(
      double energyMaxIntervalS,
      double dieTauS,
      double learnS,
      double minLearnS,
      double coverS,
      double trackS,
      double learnMaxC,
      double warningC,
      double criticalC,
      double holdS)
      implements Serializable {

    public Resistance {
      require(energyMaxIntervalS > 0, "resistance.energy_max_interval_s must be > 0, got " + energyMaxIntervalS);
      require(dieTauS > 0 && learnS > 0 && trackS > 0, "resistance: die_tau_s, learn_s and track_s must be > 0");
      require(minLearnS >= 0 && coverS >= 0, "resistance: min_learn_s and cover_s must be >= 0");
      require(warningC > 0 && criticalC > warningC,
          "resistance: 0 < warning_c < critical_c, got " + warningC + "/" + criticalC);
      require(learnMaxC > 0 && learnMaxC <= warningC, "resistance.learn_max_c must be within (0, warning_c]");
      require(holdS >= 0, "resistance.hold_s must be >= 0, got " + holdS);
    }

    public static Resistance defaults() {
      return new Resistance(30, 20, 3600, 120, 60, 300, 1.5, 3, 8, 10);
    }
  }

  public ThermalRiskSettings {
    require(slopeWindowS > 0, "slope_window_s must be > 0, got " + slopeWindowS);
    require(slopeMinSamples >= 2, "slope_min_samples must be >= 2, got " + slopeMinSamples);
    require(slopeMinSpanS >= 0 && slopeMinSpanS <= slopeWindowS,
        "slope_min_span_s must be within [0, slope_window_s], got " + slopeMinSpanS);
    require(horizonS > 0, "horizon_s must be > 0, got " + horizonS);
    require(headroomScaleC > 0 && hbmHeadroomScaleC > 0, "headroom scales must be > 0");
    require(powerRatioStart > 0 && powerRatioStart < 1, "power_ratio_start must be in (0,1), got " + powerRatioStart);
    require(rackPowerRatioStart > 0 && rackPowerRatioStart < 1,
        "rack_power_ratio_start must be in (0,1), got " + rackPowerRatioStart);
    require(inUnit(powerWeight) && inUnit(facilityWeight), "weights must be in [0,1]");
    require(coolantSupplyMarginC > 0 && coolantFlowMarginPct > 0, "coolant margins must be > 0");
    require(contextMaxAgeS > 0, "context_max_age_s must be > 0, got " + contextMaxAgeS);
    require(0 < watchLevel && watchLevel < warningLevel && warningLevel < criticalLevel && criticalLevel <= 1,
        "levels must satisfy 0 < watch < warning < critical <= 1, got " + watchLevel + "/" + warningLevel
            + "/" + criticalLevel);
    require(tickMs > 0, "tick_ms must be > 0, got " + tickMs);
    require(maxTauS > 0, "max_tau_s must be > 0, got " + maxTauS);
    require(steadyStateMarginC >= 0, "steady_state_margin_c must be >= 0, got " + steadyStateMarginC);
    require(trendZ > 0 && curvatureZ > 0, "trend_z and curvature_z must be > 0, got " + trendZ + "/" + curvatureZ);
    require(noiseFloorC > 0, "noise_floor_c must be > 0, got " + noiseFloorC);
    require(powerStepFraction > 0, "power_step_fraction must be > 0, got " + powerStepFraction);
    require(powerSmoothingS > 0, "power_smoothing_s must be > 0, got " + powerSmoothingS);
    require(glitchC > 0, "glitch_c must be > 0, got " + glitchC);
    require(resolveMargin >= 0 && resolveMargin < warningLevel,
        "resolve_margin must be within [0, warning_level), got " + resolveMargin);
    require(resolveHoldS >= 0 && throttleResolveHoldS >= 0, "resolve hold times must be >= 0");
    // 0: a settings record restored from a checkpoint written before these keys existed: their defaults
    trendWarningAssessments = trendWarningAssessments == 0 ? 3 : trendWarningAssessments;
    trendCriticalAssessments = trendCriticalAssessments == 0 ? 6 : trendCriticalAssessments;
    trendCriticalHeadroomC = trendCriticalHeadroomC == 0 ? 15 : trendCriticalHeadroomC;
    require(trendWarningAssessments >= 1 && trendCriticalAssessments >= trendWarningAssessments,
        "trend_warning_assessments must be >= 1 and trend_critical_assessments >= it, got " + trendWarningAssessments
            + "/" + trendCriticalAssessments);
    require(trendCriticalHeadroomC > 0, "trend_critical_headroom_c must be > 0, got " + trendCriticalHeadroomC);
    // null: a settings record restored from a checkpoint written before the section existed, or a config without it
    resistance = resistance == null ? Resistance.defaults() : resistance;
  }

  public static ThermalRiskSettings defaults() {
    return new ThermalRiskSettings(120, 5, 60, 2.0, 900, 5, 5, 0.9, 0.7, 0.75, 5, 20, 0.9, 120,
        0.3, 0.6, 0.85, 10_000, 85.0, 95.0, 120, 2, 3, 2, 0.5, 0.1, 5, 8, 0.15, 60, 60, 3, 6, 15, Resistance.defaults());
  }

  /** Limits used when neither the inventory nor the catalog knows them. */
  public GpuThermalLimits fallbackLimits() {
    return new GpuThermalLimits(fallbackSlowdownTempC, null, fallbackMemMaxTempC, null);
  }

  /** The level name for a score. */
  public String level(double score) {
    if (score >= criticalLevel) return "critical";
    if (score >= warningLevel) return "warning";
    if (score >= watchLevel) return "watch";
    return "ok";
  }

  private static boolean inUnit(double v) {
    return v >= 0 && v <= 1;
  }

  static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("thermal: " + message);
    }
  }
}
