package io.fleetscope.loadgen.bench;

import java.nio.file.Path;

/** Runs the batch analytics ({@code analyze --in FILE --out FILE}) over one input file. */
public interface Analyzer {
  void analyze(Path in, Path out) throws Exception;

  /** A short description for logs and reports. */
  String describe();
}
