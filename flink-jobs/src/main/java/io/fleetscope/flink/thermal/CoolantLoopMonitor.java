package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Coolant alerts of one CDU loop: CoolantFlowLow, CoolantSupplyHot and CoolantLeak, each firing on
 * the first reading past its limit and resolving on the first reading back inside the limit by
 * the hysteresis margin (a leak resolves when the sensor reads dry again).
 *
 * <p>Limits: the CDU's inventory attributes {@code flow_min_lpm} / {@code supply_max_c}, else the
 * configured defaults.
 */
public final class CoolantLoopMonitor implements Serializable {
  private final FacilitySettings cfg;
  private boolean flowLow;
  private boolean supplyHot;
  private boolean leak;

  public CoolantLoopMonitor(FacilitySettings cfg) {
    this.cfg = cfg;
  }

  /** Limits of one loop. */
  public record Limits(double supplyMaxC, double flowMinLpm) implements Serializable {}

  public Limits limits(Map<String, String> cduAttributes) {
    return new Limits(
        attr(cduAttributes, "supply_max_c", cfg.coolantSupplyMaxC()),
        attr(cduAttributes, "flow_min_lpm", cfg.coolantFlowMinLpm()));
  }

  /** Evaluates one reading and returns the alert state changes it causes (often none). */
  public List<AlertChange> onReading(CoolantReading r, Limits limits, Map<String, String> labels) {
    List<AlertChange> out = new ArrayList<>();
    double hyst = cfg.coolantHysteresisPct() / 100.0;
    Double flow = r.getFlowLpm();
    if (flow != null) {
      if (!flowLow && flow < limits.flowMinLpm()) {
        flowLow = true;
        out.add(change("CoolantFlowLow", "critical", true, flow, labels, r, limits));
      } else if (flowLow && flow >= limits.flowMinLpm() * (1 + hyst)) {
        flowLow = false;
        out.add(change("CoolantFlowLow", "critical", false, flow, labels, r, limits));
      }
    }
    Double supply = r.getSupplyTempC();
    if (supply != null) {
      if (!supplyHot && supply > limits.supplyMaxC()) {
        supplyHot = true;
        out.add(change("CoolantSupplyHot", "warning", true, supply, labels, r, limits));
      } else if (supplyHot && supply <= limits.supplyMaxC() * (1 - hyst)) {
        supplyHot = false;
        out.add(change("CoolantSupplyHot", "warning", false, supply, labels, r, limits));
      }
    }
    Boolean wet = r.getLeakDetected();
    if (wet != null) {
      if (!leak && wet) {
        leak = true;
        out.add(change("CoolantLeak", "critical", true, 1, labels, r, limits));
      } else if (leak && !wet) {
        leak = false;
        out.add(change("CoolantLeak", "critical", false, 0, labels, r, limits));
      }
    }
    return out;
  }

  public boolean anyFiring() {
    return flowLow || supplyHot || leak;
  }

  private static AlertChange change(String name, String severity, boolean firing, double value,
      Map<String, String> labels, CoolantReading r, Limits limits) {
    String where = "CDU " + r.getDevice() + " loop " + r.getLoop();
    String summary;
    String description;
    switch (name) {
      case "CoolantFlowLow" -> {
        summary = "Coolant flow low on " + where;
        description = String.format(Locale.ROOT, "flow %.1f l/min, minimum %.1f l/min", value, limits.flowMinLpm());
      }
      case "CoolantSupplyHot" -> {
        summary = "Coolant supply hot on " + where;
        description = String.format(Locale.ROOT, "supply %.1f C, maximum %.1f C", value, limits.supplyMaxC());
      }
      default -> {
        summary = "Coolant leak detected on " + where;
        description = "leak sensor reads " + (value > 0 ? "wet" : "dry");
      }
    }
    return new AlertChange(name, severity, firing, value, new LinkedHashMap<>(labels), summary, description);
  }

  private static double attr(Map<String, String> attributes, String key, double fallback) {
    if (attributes == null || attributes.get(key) == null) {
      return fallback;
    }
    try {
      double v = Double.parseDouble(attributes.get(key).trim());
      return v > 0 ? v : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
