package io.fleetscope.flink.thermal;

/**
 * The risk of one GPU at one sample.
 *
 * @param score 0 (no risk) to 1 (throttling or about to)
 * @param level ok, watch, warning or critical
 * @param secondsToThrottle predicted seconds to the slowdown temperature at the current slope, or
 *     null when the temperature is not rising (0 when already at or above it)
 * @param driver the component with the highest risk: gpu_temp, thermal_resistance, hbm_temp, power_cap,
 *     coolant_supply_temp, coolant_flow, rack_power or throttling
 * @param headroomC slowdown temperature minus current temperature, null when either is unknown
 * @param slopeCPerMin temperature trend, C per minute, null until enough samples
 * @param powerRatio power / enforced limit, null when unknown
 * @param trend the trajectory's shape, null until enough samples
 * @param steadyStateC the predicted steady state (an upper bound while the shape is RISING), else null
 * @param resistanceExcessC how far the GPU runs above its own thermal model ({@link ThermalBaseline}), C, null where
 *     the model cannot judge (no energy counter, still learning, a power it has not seen)
 */
public record ThermalAssessment(
    double score,
    String level,
    Double secondsToThrottle,
    String driver,
    Double headroomC,
    Double slopeCPerMin,
    Double powerRatio,
    TrendEstimate.Shape trend,
    Double steadyStateC,
    Double resistanceExcessC) {

  public boolean alerting() {
    return "warning".equals(level) || "critical".equals(level);
  }
}
