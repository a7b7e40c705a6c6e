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
 * The per-GPU state of the thermal analytic: the temperature trend, whether GpuThermalThrottleRisk
 * fires (and at which severity), and whether GpuThrottling fires.
 *
 * <p>GpuThermalThrottleRisk fires while the level is warning or critical; a change of severity
 * resolves the old alert and fires the new one (severity is a label, so they are two alerts).
 * GpuThrottling fires while a thermal or power slowdown bit is set (critical for HW thermal or HW
 * power brake, warning otherwise) and resolves on the first sample without one.
 */
public final class GpuThermalMonitor implements Serializable {
  private final ThermalRiskModel model;
  private final TemperatureTrend trend;
  private String riskSeverity;
  private String throttleSeverity;

  public GpuThermalMonitor(ThermalRiskModel model) {
    this.model = model;
    ThermalRiskSettings s = model.settings();
    this.trend = new TemperatureTrend(s.slopeWindowS() * 1000, s.slopeMinSamples(), s.slopeMinSpanS() * 1000);
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
    if (s.getTempC() != null) {
      trend.add(s.getTs(), s.getTempC());
    }
    ThermalAssessment a = model.assess(s, limits, trend.slopePerSecond(), cooling);
    List<AlertChange> changes = List.of();
    Map<String, String> labels = null;

    String wantRisk = a.alerting() ? a.level() : null;
    if (!java.util.Objects.equals(wantRisk, riskSeverity)) {
      changes = new ArrayList<>(2);
      labels = labelsOf.get();
      if (riskSeverity != null) {
        changes.add(riskChange(riskSeverity, false, a, s, limits, labels));
      }
      if (wantRisk != null) {
        changes.add(riskChange(wantRisk, true, a, s, limits, labels));
      }
      riskSeverity = wantRisk;
    }

    Long bits = s.getThrottleReasons();
    String wantThrottle = null;
    if (ThrottleReasons.slowdown(bits)) {
      boolean severe = (bits & (ThrottleReasons.HW_THERMAL | ThrottleReasons.HW_POWER_BRAKE)) != 0;
      wantThrottle = severe ? "critical" : "warning";
    }
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
      throttleSeverity = wantThrottle;
    }
    return new Outcome(a, changes);
  }

  public boolean anyFiring() {
    return riskSeverity != null || throttleSeverity != null;
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
            + String.format(Locale.ROOT, " (mask 0x%x)", bits) : "no slowdown reason active");
  }
}
