package io.fleetscope.flink.thermal;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the facility alerts (config section {@code facility}; keys are the snake_case
 * component names, documented with their defaults in {@code analytics-defaults-facility.yaml}).
 *
 * <p>Per-device limits may be set in the CDU's or rack's inventory record attributes
 * ({@code supply_max_c}, {@code flow_min_lpm}), which win over these defaults.
 *
 * @param coolantSupplyMaxC CoolantSupplyHot above this supply temperature ({@code coolant_supply_max_c}, 40)
 * @param coolantFlowMinLpm CoolantFlowLow below this flow ({@code coolant_flow_min_lpm}, 30)
 * @param coolantHysteresisPct a coolant alert resolves only this far (percent of the limit) back
 *     inside the limit ({@code coolant_hysteresis_pct}, 2)
 * @param rackPowerHysteresisPct RackPowerOverCooling resolves below capacity minus this percent
 *     ({@code rack_power_hysteresis_pct}, 2)
 * @param pduReadingMaxAgeS a PDU reading older than this no longer counts in its rack's kW
 *     ({@code pdu_reading_max_age_s}, 60)
 * @param coolingCapacityKw rack cooling capacity by cooling type, used when the rack's inventory
 *     gives none ({@code cooling_capacity_kw}; empty in the defaults: the hardware catalog's
 *     typical_kw per cooling type is used, see {@link #withCatalogCapacities})
 * @param defaultCoolingType cooling type assumed when the inventory names none ({@code default_cooling_type}, air)
 * @param tickMs PDU and CDU readings are evaluated per tick of this length ({@code tick_ms}, 10000)
 * @param coolantResolveHoldMs CoolantFlowLow and CoolantSupplyHot resolve only after the readings
 *     have stayed back inside the limit by the hysteresis margin for this long
 *     ({@code coolant_resolve_hold_ms}, 30000; 0 resolves at the first such reading)
 * @param rackPowerResolveHoldMs RackPowerOverCooling resolves only after the rack's power has
 *     stayed below capacity minus the hysteresis margin for this long
 *     ({@code rack_power_resolve_hold_ms}, 30000)
 */
public record FacilitySettings(
    double coolantSupplyMaxC,
    double coolantFlowMinLpm,
    double coolantHysteresisPct,
    double rackPowerHysteresisPct,
    long pduReadingMaxAgeS,
    Map<String, Double> coolingCapacityKw,
    String defaultCoolingType,
    long tickMs,
    long coolantResolveHoldMs,
    long rackPowerResolveHoldMs)
    implements Serializable {

  public FacilitySettings {
    ThermalRiskSettings.require(coolantSupplyMaxC > 0, "coolant_supply_max_c must be > 0");
    ThermalRiskSettings.require(coolantFlowMinLpm > 0, "coolant_flow_min_lpm must be > 0");
    ThermalRiskSettings.require(coolantHysteresisPct >= 0 && coolantHysteresisPct < 50,
        "coolant_hysteresis_pct must be in [0,50)");
    ThermalRiskSettings.require(rackPowerHysteresisPct >= 0 && rackPowerHysteresisPct < 50,
        "rack_power_hysteresis_pct must be in [0,50)");
    ThermalRiskSettings.require(pduReadingMaxAgeS > 0, "pdu_reading_max_age_s must be > 0");
    coolingCapacityKw = coolingCapacityKw == null ? new TreeMap<>() : new TreeMap<>(coolingCapacityKw);
    coolingCapacityKw.forEach((k, v) -> ThermalRiskSettings.require(v != null && v > 0,
        "cooling_capacity_kw." + k + " must be > 0, got " + v));
    ThermalRiskSettings.require(defaultCoolingType != null && !defaultCoolingType.isBlank(),
        "default_cooling_type must be set");
    ThermalRiskSettings.require(tickMs > 0, "tick_ms must be > 0, got " + tickMs);
    ThermalRiskSettings.require(coolantResolveHoldMs >= 0, "coolant_resolve_hold_ms must be >= 0, got " + coolantResolveHoldMs);
    ThermalRiskSettings.require(rackPowerResolveHoldMs >= 0,
        "rack_power_resolve_hold_ms must be >= 0, got " + rackPowerResolveHoldMs);
  }

  /**
   * These settings with the catalog's capacity per cooling type filled in under the configured
   * ones; fails when the default cooling type then has no capacity.
   */
  public FacilitySettings withCatalogCapacities(Map<String, Double> catalog) {
    Map<String, Double> merged = new TreeMap<>();
    catalog.forEach((k, v) -> merged.put(normalise(k), v));
    coolingCapacityKw.forEach((k, v) -> merged.put(normalise(k), v));
    ThermalRiskSettings.require(merged.containsKey(normalise(defaultCoolingType)),
        "default_cooling_type " + defaultCoolingType + " has no capacity (known: " + merged.keySet() + ")");
    return new FacilitySettings(coolantSupplyMaxC, coolantFlowMinLpm, coolantHysteresisPct, rackPowerHysteresisPct,
        pduReadingMaxAgeS, merged, defaultCoolingType, tickMs, coolantResolveHoldMs, rackPowerResolveHoldMs);
  }

  public static FacilitySettings defaults() {
    return new FacilitySettings(40, 30, 2, 2, 60,
        Map.of("air", 15.0, "rear-door", 30.0, "direct-liquid", 80.0, "immersion", 150.0), "air", 10_000,
        30_000, 30_000);
  }

  /**
   * Cooling capacity of a rack: the inventory's own figure, else the default of its cooling type,
   * else the default of {@code default_cooling_type}.
   */
  public double capacityKw(String coolingType, Double inventoryCapacityKw) {
    if (inventoryCapacityKw != null && inventoryCapacityKw > 0) {
      return inventoryCapacityKw;
    }
    Double byType = coolingType == null ? null : coolingCapacityKw.get(normalise(coolingType));
    return byType != null ? byType : coolingCapacityKw.get(normalise(defaultCoolingType));
  }

  static String normalise(String coolingType) {
    String t = coolingType.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-').replace(' ', '-');
    return switch (t) {
      case "rdhx", "rear-door-heat-exchanger", "reardoor" -> "rear-door";
      case "dlc", "liquid", "direct-to-chip" -> "direct-liquid";
      default -> t;
    };
  }
}
