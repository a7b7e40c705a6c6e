package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.FaultPlan;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * When a job runs, from the {@code job_start} and {@code job_stop} faults of a plan: a job runs
 * unless a {@code job_start} on it is outside its window or a {@code job_stop} on it is inside
 * its window. {@link JobStart} and {@link JobStop} play the same rules tick by tick.
 */
final class JobSchedule {
  private JobSchedule() {}

  /** The {@code job_start} fault keeps its job stopped at ts. */
  static boolean startStops(ResolvedFault f, long ts) {
    return !f.activeAt(ts);
  }

  /** The {@code job_stop} fault keeps its job stopped at ts. */
  static boolean stopStops(ResolvedFault f, long ts) {
    return f.activeAt(ts);
  }

  /** Whether the job (index in the site's jobs) runs at ts. */
  static boolean running(FaultPlan plan, int job, long ts) {
    for (ResolvedFault f : plan.faults()) {
      if (f.job() == null || f.job() != job) {
        continue;
      }
      if (f.type() == FaultType.JOB_START && startStops(f, ts) || f.type() == FaultType.JOB_STOP && stopStops(f, ts)) {
        return false;
      }
    }
    return true;
  }
}
