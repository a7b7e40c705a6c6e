package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.ResolvedFault;
import java.time.Duration;

/**
 * {@code cdu_flow_loss}: a CDU pump fails; the loop's flow falls linearly over {@code ramp}
 * (default 20 s) to {@code flow_fraction} (default 0.15) of nominal. The loop's supply and the
 * GPUs it cools warm up through the simulator's thermal model.
 */
final class CduFlowLoss implements Fault {
  private final ResolvedFault f;

  CduFlowLoss(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public boolean heatPhysicsOnly() {
    return true;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      FaultSpec s = f.spec();
      double ramp = s.durationParam("ramp", Duration.ofSeconds(20)).toMillis();
      double p = Math.min(1, (tick.ts() - f.startTs()) / Math.max(1, ramp));
      double target = 1 - (1 - s.param("flow_fraction", 0.15)) * p;
      effects.limitLoopFlow(f.loop(), target);
    }
  }
}
