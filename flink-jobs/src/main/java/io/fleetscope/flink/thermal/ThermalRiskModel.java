package io.fleetscope.flink.thermal;

import io.fleetscope.avro.GpuSample;
import java.io.Serializable;

/**
 * Scores the thermal-throttle risk of one GPU sample.
 *
 * <p>Each driver gets a risk in [0, 1]; the score is the largest one and the driver its name:
 * <ul>
 *   <li>{@code gpu_temp}: the larger of the headroom risk {@code 1 - headroom/headroom_scale_c} (only close to
 *       slowdown: a GPU running hot but flat a few degrees below it is not at risk) and the trend risk
 *       {@code 1 - secondsToThrottle/horizon_s}, where {@code secondsToThrottle} comes from the trajectory
 *       ({@link TrendEstimate#secondsTo}): a GPU settling below slowdown, as every GPU does when a job starts, has
 *       none; one settling above it, or accelerating (a runaway), has one;
 *   <li>{@code thermal_resistance}: the GPU running above its own thermal model at its mean power and coolant
 *       ({@link ThermalBaseline}, samples with the energy counter only): below {@code warning_c} of excess it stays
 *       under warning; from {@code warning_c} it is a warning, from {@code critical_c} critical, once the excess has
 *       stayed at least {@code warning_c} for {@code hold_s};
 *   <li>{@code hbm_temp}: headroom of the HBM to its max operating temperature;
 *   <li>{@code power_cap}: power / limit above {@code power_ratio_start}, scaled to
 *       {@code power_weight} at the limit, and {@code power_weight} while a power slowdown bit is set;
 *   <li>{@code coolant_supply_temp}, {@code coolant_flow}, {@code rack_power}: the rack's cooling
 *       approaching its limits, scaled to {@code facility_weight} at the limit;
 *   <li>{@code throttling}: 1 while a thermal or HW slowdown bit is set.
 * </ul>
 * Ties go to the earlier driver in that list (the GPU's own evidence first).
 */
public final class ThermalRiskModel implements Serializable {
  /**
   * Saved with every GPU's monitor in the thermal stage's state: fixed (the value Java computed for the class as it
   * was when it landed in the seventh session), so a change to its methods no longer makes savepoints unrestorable.
   */
  private static final long serialVersionUID = -5797813328466296628L;
  private final ThermalRiskSettings cfg;

  public ThermalRiskModel(ThermalRiskSettings cfg) {
    this.cfg = cfg;
  }

  public ThermalRiskSettings settings() {
    return cfg;
  }

  /**
   * @param s the sample
   * @param limits the GPU's limits (inventory, else catalog)
   * @param trend where the temperature is heading, null when not yet known
   * @param cooling the rack's cooling context, never null ({@link CoolingContext#none()})
   */
  public ThermalAssessment assess(GpuSample s, GpuThermalLimits limits, TrendEstimate trend, CoolingContext cooling) {
    return assess(s, limits, trend, cooling, null, null, null);
  }

  /**
   * As {@link #assess(GpuSample, GpuThermalLimits, TrendEstimate, CoolingContext)}, the trend risk counted by the
   * GPU's {@link TrendPersistence}: a trajectory-only prediction reaches warning (critical) only once it has held
   * for {@code trend_warning_assessments} ({@code trend_critical_assessments}, and within
   * {@code trend_critical_headroom_c} of slowdown); null: every assessment on its own.
   */
  ThermalAssessment assess(GpuSample s, GpuThermalLimits limits, TrendEstimate trend, CoolingContext cooling,
      TrendPersistence persistence) {
    return assess(s, limits, trend, cooling, persistence, null, null);
  }

  /**
   * As above, with the GPU's excess over its own thermal model ({@link ThermalBaseline}; null: not judged) and its
   * mean over the last {@code hold_s} ({@link ExcessWindow}; null until judged samples span that long).
   */
  ThermalAssessment assess(GpuSample s, GpuThermalLimits limits, TrendEstimate trend, CoolingContext cooling,
      TrendPersistence persistence, Double excessC, Double heldExcessC) {
    Double temp = s.getTempC();
    Double headroom = (temp != null && limits.slowdownTempC() != null) ? limits.slowdownTempC() - temp : null;
    Double slopePerMin = trend == null ? null : trend.slopeCPerS() * 60.0;

    Double secondsToThrottle = null;
    double gpuRisk = 0;
    if (headroom != null) {
      gpuRisk = clamp(1 - headroom / cfg.headroomScaleC());
      if (headroom <= 0) {
        secondsToThrottle = 0.0;
      } else {
        secondsToThrottle = trend == null ? null : trend.secondsTo(limits.slowdownTempC(), cfg.steadyStateMarginC());
        double trendRisk = secondsToThrottle == null ? 0 : clamp(1 - secondsToThrottle / cfg.horizonS());
        if (persistence != null) {
          trendRisk = persistence.offer(trendRisk, headroom, cfg); // no trend (yet) breaks the streak too
        }
        gpuRisk = Math.max(gpuRisk, trendRisk);
      }
    }

    double resistanceRisk = resistanceRisk(excessC, heldExcessC);

    double hbmRisk = 0;
    if (s.getMemTempC() != null && limits.memMaxTempC() != null) {
      hbmRisk = clamp(1 - (limits.memMaxTempC() - s.getMemTempC()) / cfg.hbmHeadroomScaleC());
    }

    Double limitW = s.getPowerLimitW() != null && s.getPowerLimitW() > 0 ? s.getPowerLimitW() : limits.tdpW();
    Double powerRatio = (s.getPowerW() != null && limitW != null && limitW > 0) ? s.getPowerW() / limitW : null;
    double powerRisk = 0;
    if (powerRatio != null) {
      powerRisk = cfg.powerWeight() * clamp((powerRatio - cfg.powerRatioStart()) / (1 - cfg.powerRatioStart()));
    }
    Long bits = s.getThrottleReasons();
    if (ThrottleReasons.power(bits)) {
      powerRisk = Math.max(powerRisk, cfg.powerWeight());
    }

    double supplyRisk = 0;
    if (cooling.supplyTempC() != null && cooling.supplyMaxC() != null) {
      double start = cooling.supplyMaxC() - cfg.coolantSupplyMarginC();
      supplyRisk = cfg.facilityWeight() * clamp((cooling.supplyTempC() - start) / cfg.coolantSupplyMarginC());
    }
    double flowRisk = 0;
    if (cooling.flowLpm() != null && cooling.flowMinLpm() != null && cooling.flowMinLpm() > 0) {
      double start = cooling.flowMinLpm() * (1 + cfg.coolantFlowMarginPct() / 100.0);
      flowRisk = cfg.facilityWeight() * clamp((start - cooling.flowLpm()) / (start - cooling.flowMinLpm()));
    }
    double rackRisk = 0;
    if (cooling.rackKw() != null && cooling.rackCapacityKw() != null && cooling.rackCapacityKw() > 0) {
      double ratio = cooling.rackKw() / cooling.rackCapacityKw();
      rackRisk = cfg.facilityWeight() * clamp((ratio - cfg.rackPowerRatioStart()) / (1 - cfg.rackPowerRatioStart()));
    }
    double throttleRisk = (ThrottleReasons.thermal(bits) || ThrottleReasons.hwSlowdown(bits)) ? 1.0 : 0.0;

    String[] names = {"gpu_temp", "thermal_resistance", "hbm_temp", "power_cap", "coolant_supply_temp", "coolant_flow",
        "rack_power", "throttling"};
    double[] risks = {gpuRisk, resistanceRisk, hbmRisk, powerRisk, supplyRisk, flowRisk, rackRisk, throttleRisk};
    int best = 0;
    for (int i = 1; i < risks.length; i++) {
      if (risks[i] > risks[best]) {
        best = i;
      }
    }
    double score = round(risks[best]);
    return new ThermalAssessment(score, cfg.level(score), secondsToThrottle == null ? null : round(secondsToThrottle),
        names[best], headroom, slopePerMin == null ? null : round(slopePerMin), powerRatio == null ? null : round(powerRatio),
        trend == null ? null : trend.shape(),
        trend == null || trend.steadyStateC() == null ? null : round(trend.steadyStateC()),
        excessC == null ? null : round(excessC));
  }

  /**
   * Risk of the excess over the GPU's own model, from its mean over the last {@code hold_s}: linear from 0 at no
   * excess to just under warning at {@code warning_c}; warning from there rising to critical at {@code critical_c};
   * critical rising to 1 at twice {@code critical_c}. Until the window is full, the sample's own excess counts at
   * most just under warning.
   */
  private double resistanceRisk(Double sampleExcessC, Double heldExcessC) {
    ThermalRiskSettings.Resistance r = cfg.resistance();
    double below = cfg.warningLevel() - 1e-6;
    Double excessC = heldExcessC != null ? heldExcessC : sampleExcessC;
    if (excessC == null || excessC <= 0) {
      return 0;
    }
    if (excessC < r.warningC() || heldExcessC == null) {
      return Math.min(below, below * excessC / r.warningC());
    }
    if (excessC < r.criticalC()) {
      return cfg.warningLevel() + (cfg.criticalLevel() - 1e-6 - cfg.warningLevel())
          * (excessC - r.warningC()) / (r.criticalC() - r.warningC());
    }
    return cfg.criticalLevel() + (1 - cfg.criticalLevel()) * clamp((excessC - r.criticalC()) / r.criticalC());
  }

  private static double clamp(double v) {
    if (Double.isNaN(v)) {
      return 0;
    }
    return Math.max(0, Math.min(1, v));
  }

  /** Rounds to 6 decimals so that live and batch runs print identical values. */
  static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
