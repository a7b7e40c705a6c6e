package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Hysteresis;
import io.fleetscope.flink.core.Threshold;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Coolant alerts of one CDU loop: CoolantFlowLow, CoolantSupplyHot and CoolantLeak. Flow and supply
 * fire on the first reading past their limit and resolve once the readings have stayed back inside
 * the limit by the hysteresis margin for the resolve hold ({@link Hysteresis}); a leak resolves
 * when the sensor reads dry again.
 *
 * <p>Limits: the CDU's inventory attributes {@code flow_min_lpm} / {@code supply_max_c}, else the
 * configured defaults.
 */
public final class CoolantLoopMonitor implements Serializable {
  /** The value Java derived before it was declared: savepoints of earlier versions restore. */
  private static final long serialVersionUID = 327454620868304403L;
  private final FacilitySettings cfg;
  /** Firing state of savepoints written before {@link #flow} existed (read once, in readObject). */
  private boolean flowLow;
  /** Firing state of savepoints written before {@link #supply} existed (read once, in readObject). */
  private boolean supplyHot;
  private boolean leak;
  private Hysteresis flow = new Hysteresis();
  private Hysteresis supply = new Hysteresis();

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
    long hold = cfg.coolantResolveHoldMs();
    Double flowLpm = r.getFlowLpm();
    if (flowLpm != null) {
      Hysteresis.Change c = flow.update(Threshold.below(limits.flowMinLpm(), hyst, hold), flowLpm, r.getTs());
      if (c != Hysteresis.Change.NONE) {
        out.add(change("CoolantFlowLow", "critical", c == Hysteresis.Change.FIRE, flowLpm, labels, r, limits));
      }
    }
    Double supplyC = r.getSupplyTempC();
    if (supplyC != null) {
      Hysteresis.Change c = supply.update(Threshold.above(limits.supplyMaxC(), hyst, hold), supplyC, r.getTs());
      if (c != Hysteresis.Change.NONE) {
        out.add(change("CoolantSupplyHot", "warning", c == Hysteresis.Change.FIRE, supplyC, labels, r, limits));
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
    return flow.firing() || supply.firing() || leak;
  }

  /** A savepoint of an earlier version has no hysteresis states: they start from its firing flags. */
  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (flow == null) {
      flow = Hysteresis.restored(flowLow);
    }
    if (supply == null) {
      supply = Hysteresis.restored(supplyHot);
    }
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
