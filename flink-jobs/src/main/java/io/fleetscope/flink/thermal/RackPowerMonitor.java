package io.fleetscope.flink.thermal;

import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Hysteresis;
import io.fleetscope.flink.core.Threshold;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * RackPowerOverCooling for one rack: fires when the rack's kW (from its PDUs) exceeds its cooling
 * capacity, resolves once it has stayed below capacity minus the hysteresis margin for the resolve
 * hold ({@link Hysteresis}).
 */
public final class RackPowerMonitor implements Serializable {
  /** The value Java derived before it was declared: savepoints of earlier versions restore. */
  private static final long serialVersionUID = -4846493868215387828L;
  private final FacilitySettings cfg;
  /** Firing state of savepoints written before {@link #state} existed (read once, in readObject). */
  private boolean over;
  private Hysteresis state = new Hysteresis();

  public RackPowerMonitor(FacilitySettings cfg) {
    this.cfg = cfg;
  }

  /** Evaluates the rack's power at {@code ts} (event time of its newest PDU reading). */
  public List<AlertChange> onRackPower(double rackKw, double capacityKw, long ts, Map<String, String> labels) {
    Threshold t = Threshold.above(capacityKw, cfg.rackPowerHysteresisPct() / 100.0, cfg.rackPowerResolveHoldMs());
    return switch (state.update(t, rackKw, ts)) {
      case FIRE -> List.of(change(true, rackKw, capacityKw, labels));
      case RESOLVE -> List.of(change(false, rackKw, capacityKw, labels));
      case NONE -> List.of();
    };
  }

  public boolean firing() {
    return state.firing();
  }

  /** A savepoint of an earlier version has no hysteresis state: it starts from its firing flag. */
  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (state == null) {
      state = Hysteresis.restored(over);
    }
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
