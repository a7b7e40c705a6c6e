package io.fleetscope.loadgen.sim;

/**
 * The thermal model, as pure functions. A GPU's temperature approaches
 * {@code coolantLocal + R * power} with a first-order lag (time constant {@link #GPU_TAU_S});
 * coolant warms along the rack by {@code heat / (flow * c)}; less flow also raises the cold plate's
 * thermal resistance.
 */
public final class Thermal {
  private Thermal() {}

  /** Cold-plate thermal resistance of a direct-liquid-cooled H100/H200, C per W. */
  public static final double BASE_R_C_PER_W = 0.052;
  /** GPU die time constant, seconds. */
  public static final double GPU_TAU_S = 20;
  /** Nominal coolant flow per rack, litres per minute. */
  public static final double FLOW_PER_RACK_LPM = 45;
  /** Specific heat of the coolant, kJ per kg K (water; 1 litre ~ 1 kg). */
  public static final double COOLANT_C = 4.18;
  /** Wall power of a node running a job, as a rack's starting heat load, kW. */
  public static final double NOMINAL_NODE_HEAT_KW = 6.0;
  /** CDU supply temperature set point, Celsius. */
  public static final double SUPPLY_SETPOINT_C = 30;

  /** Temperature rise of coolant through a rack, K. */
  public static double coolantRiseK(double heatKw, double flowLpm) {
    double kgPerS = Math.max(flowLpm, 0.5) / 60.0;
    return heatKw / (kgPerS * COOLANT_C);
  }

  /** Effective resistance at a flow fraction f (1 = nominal): less flow, worse heat transfer. */
  public static double resistance(double baseR, double flowFraction) {
    double f = Math.max(0, Math.min(1, flowFraction));
    return baseR * (1 + 0.6 * (1 - f));
  }

  /** Steady-state GPU temperature: {@code coolant + R * power + hotspot}, the target of {@link #lag}. */
  public static double steadyStateC(double coolantC, double r, double powerW, double hotspotC) {
    return coolantC + r * powerW + hotspotC;
  }

  /** One first-order-lag step towards target over dt seconds. */
  public static double lag(double current, double target, double dtS, double tauS) {
    return current + (target - current) * (1 - Math.exp(-dtS / tauS));
  }
}
