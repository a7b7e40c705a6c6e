package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * Thermal and power limits of one GPU: from its inventory record where the agent published them,
 * otherwise from the hardware catalog entry of its model. Any field may be null when unknown.
 *
 * @param slowdownTempC GPU core temperature at which the GPU slows its clocks
 * @param shutdownTempC GPU core temperature at which the GPU shuts down
 * @param memMaxTempC maximum operating HBM temperature
 * @param tdpW board power (TDP), used when the sample carries no enforced power limit
 */
public record GpuThermalLimits(Double slowdownTempC, Double shutdownTempC, Double memMaxTempC, Double tdpW)
    implements Serializable {

  /** Fills the fields this record lacks from {@code fallback}. */
  public GpuThermalLimits orElse(GpuThermalLimits fallback) {
    if (fallback == null) {
      return this;
    }
    return new GpuThermalLimits(
        slowdownTempC != null ? slowdownTempC : fallback.slowdownTempC,
        shutdownTempC != null ? shutdownTempC : fallback.shutdownTempC,
        memMaxTempC != null ? memMaxTempC : fallback.memMaxTempC,
        tdpW != null ? tdpW : fallback.tdpW);
  }

  public static GpuThermalLimits unknown() {
    return new GpuThermalLimits(null, null, null, null);
  }
}
