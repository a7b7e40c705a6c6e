package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultPlan;

/**
 * {@code mixed_gpu_models}: some nodes of a job carry another GPU model. The site is generated
 * that way ({@link FaultPlan#modelOverrides}), so the fault has no effect tick by tick.
 */
final class MixedGpuModels implements Fault {

  @Override
  public void apply(FaultTick tick, TickEffects effects) {}
}
