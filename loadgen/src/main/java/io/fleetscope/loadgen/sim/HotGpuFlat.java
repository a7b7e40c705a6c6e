package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;

/**
 * {@code hot_gpu_flat}: a GPU whose cold plate has a higher but constant thermal resistance (a
 * poorer thermal interface, a partly blocked channel), so it runs hot but flat: at the job's
 * average training power and the rack's nominal coolant temperature its steady state is
 * {@code headroom_c} (default 6) below its model's slowdown temperature. The supply drift (about
 * +-1 C) and the training phases move it by a degree or two; checkpoints cool it for half a minute.
 * Benign: expected to raise nothing.
 */
final class HotGpuFlat implements Fault {
  /** Default distance of the steady state below the slowdown temperature, C. */
  static final double DEFAULT_HEADROOM_C = 6;

  private final ResolvedFault f;
  private final Effect effect;

  HotGpuFlat(ResolvedFault f, SimConfig config, SiteTopology site, JobState[] jobs) {
    this.f = f;
    SiteTopology.Node node = site.nodes().get(f.node());
    int rackNodes = site.rack(node.rack()).nodes().size();
    double coolant = Thermal.SUPPLY_SETPOINT_C
        + 0.5 * Thermal.coolantRiseK(rackNodes * Thermal.NOMINAL_NODE_HEAT_KW, Thermal.FLOW_PER_RACK_LPM);
    double targetC = node.model().slowdownTempC() - f.spec().param("headroom_c", DEFAULT_HEADROOM_C);
    this.effect = new Effect(f.gpu(), coolant, targetC, node.model().tdpW() * jobs[f.job()].averagePowerFraction());
  }

  /** Active from the start: the GPU starts at its hot steady state, not at a healthy one. */
  @Override
  public void atRunStart(long startMs, GpuState[][] gpus) {
    if (f.activeAt(startMs)) {
      GpuState s = gpus[f.node()][f.gpu()];
      effect.beforeStep(gpus[f.node()], null);
      s.tempC += (effect.factor - 1) * effect.healthyRiseC(s);
    }
  }

  @Override
  public boolean heatPhysicsOnly() {
    return true;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.node(f.node()).effect(f.type(), () -> effect);
    }
  }

  /**
   * The resistance factor that puts one GPU's steady state at the target temperature, fixed from
   * the GPU's own cold-plate and power variation the first time the node is stepped.
   */
  static final class Effect implements NodeEffect {
    private final int gpu;
    private final double coolantC;
    private final double targetC;
    private final double trainingPowerW;
    private double factor = Double.NaN;

    Effect(int gpu, double coolantC, double targetC, double trainingPowerW) {
      this.gpu = gpu;
      this.coolantC = coolantC;
      this.targetC = targetC;
      this.trainingPowerW = trainingPowerW;
    }

    @Override
    public void beforeStep(GpuState[] gpus, PortState[] ports) {
      if (Double.isNaN(factor)) {
        GpuState s = gpus[gpu];
        factor = Math.max(1, (targetC - coolantC - s.hotspotC) / healthyRiseC(s));
      }
    }

    /** The healthy cold plate's temperature rise over the coolant at the job's training power, K. */
    double healthyRiseC(GpuState s) {
      return Thermal.BASE_R_C_PER_W * s.rVariation * trainingPowerW * s.powerVariation;
    }

    @Override
    public double resistanceFactor(int g) {
      return g == gpu && !Double.isNaN(factor) ? factor : 1;
    }
  }
}
