package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * The tick a fault is applied in: the interval (prevTs, ts] of event time, and whether it is the
 * first tick of the run.
 */
record FaultTick(long ts, long prevTs, boolean first) {

  /** The fault's window contains this tick's time. */
  boolean active(ResolvedFault f) {
    return f.activeAt(ts);
  }

  /** The fault starts in this tick. */
  boolean starts(ResolvedFault f) {
    return crosses(f.startTs());
  }

  /** A one-shot event at {@code at} happens in this tick. */
  boolean crosses(long at) {
    return ResolvedFault.crosses(at, prevTs, ts);
  }
}
