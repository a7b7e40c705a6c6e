package io.fleetscope.loadgen.catalog;

/**
 * Hardware limits of one GPU model, as the simulator uses them.
 *
 * @param name product name as nvidia-smi reports it
 * @param tdpW board power limit (default and max power limit), W
 * @param maxOperatingTempC GPU max operating temperature (T.Limit 0), Celsius
 * @param slowdownTempC hardware slowdown temperature, Celsius
 * @param shutdownTempC hardware shutdown temperature, Celsius
 * @param memMaxTempC HBM max operating temperature, Celsius
 * @param hbmGb HBM capacity, GB
 * @param memTotalMib framebuffer size nvidia-smi reports, MiB
 * @param maxSmClockMhz max SM clock, MHz
 * @param memClockMhz HBM clock, MHz
 * @param idlePowerW power drawn when idle, W
 */
public record GpuModel(
    String name,
    double tdpW,
    double maxOperatingTempC,
    double slowdownTempC,
    double shutdownTempC,
    double memMaxTempC,
    double hbmGb,
    double memTotalMib,
    double maxSmClockMhz,
    double memClockMhz,
    double idlePowerW) {}
