package io.fleetscope.loadgen.bench.chaos;

import java.nio.file.Path;
import java.util.List;

/**
 * Runs the fault-injection suite ({@code bench chaos}). The loadgen owns the fleet and the checks;
 * starting, killing and restarting the local services is the stack's, so the command line passes
 * the implementation in.
 */
public interface ChaosRunner {

  /**
   * What to run: {@code minutes} of fleet, {@code nodes} simulated nodes, the faults in order,
   * results under {@code outDir}.
   */
  record Options(double minutes, int nodes, long seed, List<FaultKind> faults, Path outDir) {
    public Options {
      if (minutes < 2) {
        throw new IllegalArgumentException("--minutes must be at least 2 (a warm-up, the faults, then time to catch up)");
      }
      if (nodes < 8) {
        throw new IllegalArgumentException("--nodes must be at least 8 (the chaos scenario's incidents use 8 nodes)");
      }
      faults = List.copyOf(faults);
    }
  }

  ChaosReport run(Options options) throws Exception;
}
