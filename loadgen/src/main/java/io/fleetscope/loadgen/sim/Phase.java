package io.fleetscope.loadgen.sim;

/**
 * Training phases and how each shapes a GPU and its fabric port: fraction of TDP drawn, SM
 * utilisation, HBM utilisation, NVLink bytes/s per GPU, and the fraction of line rate each HCA
 * port carries. Compute is GEMM-bound, all-reduce is communication-bound, a checkpoint leaves the
 * GPUs mostly idle while state is written out.
 */
public enum Phase {
  COMPUTE(0.88, 98, 45, 40e9, 0.06),
  ALL_REDUCE(0.55, 72, 30, 350e9, 0.85),
  CHECKPOINT(0.22, 8, 20, 5e9, 0.02),
  IDLE(0.10, 0, 0, 0, 0.001);

  public final double powerFraction;
  public final double utilPct;
  public final double memUtilPct;
  public final double nvlinkBytesPerS;
  public final double fabricFraction;

  Phase(double powerFraction, double utilPct, double memUtilPct, double nvlinkBytesPerS, double fabricFraction) {
    this.powerFraction = powerFraction;
    this.utilPct = utilPct;
    this.memUtilPct = memUtilPct;
    this.nvlinkBytesPerS = nvlinkBytesPerS;
    this.fabricFraction = fabricFraction;
  }
}
