package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code job_start}: a job launches at the fault's start. Before it (and from the fault's end, when
 * one is given) the job's nodes are idle and not allocated to it: their GPUs draw idle power and
 * settle towards {@code coolant + R * idle power}; inside the window they run the job's steps and
 * checkpoints. The allocation records follow. Benign: expected to raise nothing.
 */
final class JobStart implements Fault {
  private final ResolvedFault f;

  JobStart(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (JobSchedule.startStops(f, tick.ts())) {
      effects.stopJob(f.job());
    }
  }
}
