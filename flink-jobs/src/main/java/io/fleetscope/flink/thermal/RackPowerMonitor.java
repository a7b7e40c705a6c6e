package io.fleetscope.flink.thermal;

import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * RackPowerOverCooling for one rack: fires when the rack's kW (from its PDUs) exceeds its cooling
 * capacity, resolves when it falls below capacity minus the hysteresis margin.
 */
public final class RackPowerMonitor implements Serializable {
  private final FacilitySettings cfg;
  private boolean over;

  public RackPowerMonitor(FacilitySettings cfg) {
    this.cfg = cfg;
  }

  public List<AlertChange> onRackPower(double rackKw, double capacityKw, Map<String, String> labels) {
    if (!over && rackKw > capacityKw) {
      over = true;
      return List.of(change(true, rackKw, capacityKw, labels));
    }
    if (over && rackKw <= capacityKw * (1 - cfg.rackPowerHysteresisPct() / 100.0)) {
      over = false;
      return List.of(change(false, rackKw, capacityKw, labels));
    }
    return List.of();
  }

  public boolean firing() {
    return over;
  }

  private static AlertChange change(boolean firing, double kw, double capacity, Map<String, String> labels) {
    String rack = labels.getOrDefault("rack", "?");
    return new AlertChange("RackPowerOverCooling", "critical", firing, ThermalRiskModel.round(kw),
        new LinkedHashMap<>(labels),
        "Rack " + rack + " draws more power than its cooling removes",
        String.format(Locale.ROOT, "rack power %.1f kW, cooling capacity %.1f kW (%.0f%%)", kw, capacity,
            100 * kw / capacity));
  }
}
