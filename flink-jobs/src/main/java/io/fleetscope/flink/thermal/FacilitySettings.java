package io.fleetscope.flink.thermal;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the facility alerts (config section {@code facility}); documented defaults in
 * {@link #defaults()} and {@code thermal/thermal-defaults.yaml}.
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
 *     gives none ({@code cooling_capacity_kw}: air 15, rear-door 30, direct-liquid 80, immersion 120)
 * @param defaultCoolingType cooling type assumed when the inventory names none ({@code default_cooling_type}, air)
 */
public record FacilitySettings(
    double coolantSupplyMaxC,
    double coolantFlowMinLpm,
    double coolantHysteresisPct,
    double rackPowerHysteresisPct,
    long pduReadingMaxAgeS,
    Map<String, Double> coolingCapacityKw,
    String defaultCoolingType)
    implements Serializable {

  public FacilitySettings {
    ThermalRiskSettings.require(coolantSupplyMaxC > 0, "coolant_supply_max_c must be > 0");
    ThermalRiskSettings.require(coolantFlowMinLpm > 0, "coolant_flow_min_lpm must be > 0");
    ThermalRiskSettings.require(coolantHysteresisPct >= 0 && coolantHysteresisPct < 50,
        "coolant_hysteresis_pct must be in [0,50)");
    ThermalRiskSettings.require(rackPowerHysteresisPct >= 0 && rackPowerHysteresisPct < 50,
        "rack_power_hysteresis_pct must be in [0,50)");
    ThermalRiskSettings.require(pduReadingMaxAgeS > 0, "pdu_reading_max_age_s must be > 0");
    coolingCapacityKw = new TreeMap<>(coolingCapacityKw);
    coolingCapacityKw.forEach((k, v) -> ThermalRiskSettings.require(v != null && v > 0,
        "cooling_capacity_kw." + k + " must be > 0, got " + v));
    ThermalRiskSettings.require(coolingCapacityKw.containsKey(defaultCoolingType),
        "default_cooling_type " + defaultCoolingType + " has no cooling_capacity_kw entry");
  }

  public static FacilitySettings defaults() {
    return new FacilitySettings(40, 30, 2, 2, 60,
        Map.of("air", 15.0, "rear-door", 30.0, "direct-liquid", 80.0, "immersion", 120.0), "air");
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
    return byType != null ? byType : coolingCapacityKw.get(defaultCoolingType);
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
