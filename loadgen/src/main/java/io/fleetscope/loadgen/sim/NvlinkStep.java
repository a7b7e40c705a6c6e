package io.fleetscope.loadgen.sim;

/** One GPU's NVLink links in one tick, as faults leave them: which are inactive, and the errors each adds. */
final class NvlinkStep {
  final boolean[] inactive;
  final long[] replayErrors;

  NvlinkStep(int links) {
    inactive = new boolean[links];
    replayErrors = new long[links];
  }
}
