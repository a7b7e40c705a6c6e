package io.fleetscope.flink.thermal;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-GPU state of the thermal analytic: the temperature trajectory within the current power segment
 * ({@link PowerSegment}, one-sample glitches dropped by {@link GlitchFilter}), whether GpuThermalThrottleRisk fires
 * (and at which severity), and whether GpuThrottling fires.
 *
 * <p>GpuThermalThrottleRisk fires when the level reaches warning or critical; critical takes over from warning at
 * once (severity is a label, so the warning resolves and the critical fires). It does not step down: it resolves
 * once the score has stayed below {@code warning_level - resolve_margin} for {@code resolve_hold_s}
 * ({@link HeldSeverity}). GpuThrottling fires while a thermal or power slowdown bit is set (critical for HW thermal
 * or HW power brake, warning otherwise; critical takes over at once) and resolves after
 * {@code throttle_resolve_hold_s} without any.
 *
 * <p>Where the samples carry the GPU's cumulative energy counter, the power segments follow the mean power of each
 * interval ({@link IntervalPower}) instead of the instantaneous reading, and the GPU's own thermal model
 * ({@link ThermalBaseline}) adds the {@code thermal_resistance} driver.
 *
 * <p>State format 2 (the trajectory, power segment, glitch filter and hold times): a checkpoint of format 1
 * (before them) does not restore into this class.
 */
public final class GpuThermalMonitor implements Serializable {
  private static final long serialVersionUID = 2L;
  private final ThermalRiskModel model;
  private final TemperatureTrend trend;
  private final PowerSegment power;
  private final GlitchFilter glitches;
  private final HeldSeverity risk;
  private final HeldSeverity throttle;
  /** Null in a monitor restored from a checkpoint written before it existed: created on the next sample. */
  private TrendPersistence persistence;
  /** Null in a monitor restored from a checkpoint written before they existed: created on the next sample. */
  private IntervalPower intervalPower;
  private ThermalBaseline baseline;
  private ExcessWindow excessWindow;

  public GpuThermalMonitor(ThermalRiskModel model) {
    this.model = model;
    ThermalRiskSettings s = model.settings();
    this.trend = new TemperatureTrend(s.slopeWindowS() * 1000, s.slopeMinSamples(), s.slopeMinSpanS() * 1000);
    this.power = new PowerSegment(s.powerSmoothingS(), s.powerStepFraction());
    this.glitches = new GlitchFilter(s.glitchC());
    this.risk = new HeldSeverity(s.resolveHoldS() * 1000);
    this.throttle = new HeldSeverity(s.throttleResolveHoldS() * 1000);
    this.persistence = new TrendPersistence();
    this.intervalPower = new IntervalPower(s.resistance().energyMaxIntervalS());
    this.baseline = new ThermalBaseline(s.resistance());
    this.excessWindow = new ExcessWindow(s.resistance().holdS());
  }

  /** Result of one sample. */
  public record Outcome(ThermalAssessment assessment, List<AlertChange> changes) {}

  public Outcome onSample(GpuSample s, GpuThermalLimits limits, CoolingContext cooling, Map<String, String> labels) {
    return onSample(s, limits, cooling, () -> labels);
  }

  /**
   * Like {@link #onSample(GpuSample, GpuThermalLimits, CoolingContext, Map)}; the labels are asked
   * for only when an alert changes state (most samples change none).
   */
  public Outcome onSample(GpuSample s, GpuThermalLimits limits, CoolingContext cooling,
      java.util.function.Supplier<Map<String, String>> labelsOf) {
    ThermalRiskSettings cfg = model.settings();
    Double limitW = s.getPowerLimitW() != null && s.getPowerLimitW() > 0 ? s.getPowerLimitW() : limits.tdpW();
    if (intervalPower == null) {
      intervalPower = new IntervalPower(cfg.resistance().energyMaxIntervalS());
      baseline = new ThermalBaseline(cfg.resistance());
    }
    if (excessWindow == null) { // restored from a checkpoint written before it existed
      excessWindow = new ExcessWindow(cfg.resistance().holdS());
    }
    Double meanW = intervalPower.offer(s.getTs(), s.getEnergyMj());
    if (power.offer(s.getTs(), meanW != null ? meanW : s.getPowerW(), limitW)) {
      trend.clear();
    }
    GpuSample scored = s;
    Double excess = null;
    if (s.getTempC() != null) {
      double t = glitches.offer(s.getTs(), s.getTempC(), trend::add);
      if (t != s.getTempC()) {
        scored = GpuSample.newBuilder(s).setTempC(t).build();
      }
      if (s.getEnergyMj() != null && limitW != null) {
        // a reading the glitch filter holds back is neither judged nor learned (the model restarts after it): at
        // 10 s samples a checkpoint's first reading can be 9 C below the last, and the held value is not the GPU's
        boolean held = t != s.getTempC();
        excess = baseline.offer(t, held ? null : meanW, meanW == null ? 0 : intervalPower.intervalS(),
            cooling.supplyTempC(), limitW);
      }
    }
    Double heldExcess = excessWindow.offer(s.getTs(), excess);
    if (persistence == null) {
      persistence = new TrendPersistence();
    }
    ThermalAssessment a = model.assess(scored, limits, TrendEstimate.of(trend.quadraticFit(cfg.noiseFloorC()), cfg), cooling,
        persistence, excess, heldExcess);
    List<AlertChange> changes = List.of();
    Map<String, String> labels = null;

    String riskSeverity = risk.firing();
    String wantRisk = a.alerting() ? a.level() : null;
    boolean holds = riskSeverity != null && a.score() >= cfg.warningLevel() - cfg.resolveMargin();
    wantRisk = risk.offer(s.getTs(), wantRisk, holds);
    if (!java.util.Objects.equals(wantRisk, riskSeverity)) {
      changes = new ArrayList<>(2);
      labels = labelsOf.get();
      if (riskSeverity != null) {
        changes.add(riskChange(riskSeverity, false, a, s, limits, labels));
      }
      if (wantRisk != null) {
        changes.add(riskChange(wantRisk, true, a, s, limits, labels));
      }
    }

    Long bits = s.getThrottleReasons();
    String wantThrottle = null;
    if (ThrottleReasons.slowdown(bits)) {
      boolean severe = (bits & (ThrottleReasons.HW_THERMAL | ThrottleReasons.HW_POWER_BRAKE)) != 0;
      wantThrottle = severe ? "critical" : "warning";
    }
    String throttleSeverity = throttle.firing();
    wantThrottle = throttle.offer(s.getTs(), wantThrottle, false);
    if (!java.util.Objects.equals(wantThrottle, throttleSeverity)) {
      if (changes.isEmpty()) {
        changes = new ArrayList<>(2);
      }
      if (labels == null) {
        labels = labelsOf.get();
      }
      if (throttleSeverity != null) {
        changes.add(throttleChange(throttleSeverity, false, s, labels));
      }
      if (wantThrottle != null) {
        changes.add(throttleChange(wantThrottle, true, s, labels));
      }
    }
    return new Outcome(a, changes);
  }

  public boolean anyFiring() {
    return risk.firing() != null || throttle.firing() != null;
  }

  private static AlertChange riskChange(String severity, boolean firing, ThermalAssessment a, GpuSample s,
      GpuThermalLimits limits, Map<String, String> labels) {
    Map<String, String> l = new LinkedHashMap<>(labels);
    l.put("driver", a.driver());
    String where = s.getNode() + " GPU " + s.getGpu();
    StringBuilder d = new StringBuilder();
    d.append(String.format(Locale.ROOT, "risk score %.2f (%s), main driver %s", a.score(), a.level(), a.driver()));
    if (s.getTempC() != null) {
      d.append(String.format(Locale.ROOT, "; GPU %.1f C", s.getTempC()));
      if (limits.slowdownTempC() != null) {
        d.append(String.format(Locale.ROOT, " vs slowdown %.1f C", limits.slowdownTempC()));
      }
    }
    if (a.slopeCPerMin() != null) {
      d.append(String.format(Locale.ROOT, "; trend %+.2f C/min", a.slopeCPerMin()));
    }
    if (a.trend() != null && a.trend() != TrendEstimate.Shape.FLAT) {
      d.append("; trajectory ").append(a.trend().name().toLowerCase(Locale.ROOT));
      if (a.steadyStateC() != null) {
        d.append(String.format(Locale.ROOT, a.trend() == TrendEstimate.Shape.SETTLING
            ? " towards %.1f C" : " towards at most %.1f C", a.steadyStateC()));
      }
    }
    if (a.resistanceExcessC() != null && a.resistanceExcessC() > 0) {
      d.append(String.format(Locale.ROOT, "; %.1f C above its own thermal model at this power and coolant",
          a.resistanceExcessC()));
    }
    if (a.secondsToThrottle() != null) {
      d.append(String.format(Locale.ROOT, "; slowdown predicted in %.0f s", a.secondsToThrottle()));
    }
    return new AlertChange("GpuThermalThrottleRisk", severity, firing, a.score(), l,
        "Thermal throttle risk " + severity + " on " + where + " (" + a.driver() + ")", d.toString());
  }

  private static AlertChange throttleChange(String severity, boolean firing, GpuSample s, Map<String, String> labels) {
    Long bits = s.getThrottleReasons();
    List<String> names = ThrottleReasons.names(bits);
    return new AlertChange("GpuThrottling", severity, firing, bits == null ? 0 : bits, new LinkedHashMap<>(labels),
        "GPU slowing down on " + s.getNode() + " GPU " + s.getGpu(),
        firing ? "active clock-event reasons: " + String.join(", ", names)
            + String.format(Locale.ROOT, " (mask 0x%x)", bits)
            : "no slowdown reason of this severity for the hold time");
  }
}
