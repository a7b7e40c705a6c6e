package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code job_stop}: a running job ends at the fault's start; its nodes are idle and not allocated to
 * it until the fault's end (default: the end of the run), when it starts again. A checkpoint running
 * at the stop completes then. The GPUs cool towards {@code coolant + R * idle power}; the agents keep
 * sampling them. Benign: expected to raise nothing.
 */
final class JobStop implements Fault {
  private final ResolvedFault f;

  JobStop(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (JobSchedule.stopStops(f, tick.ts())) {
      effects.stopJob(f.job());
    }
  }
}
