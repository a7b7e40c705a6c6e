package io.fleetscope.loadgen.bench;

import java.nio.file.Path;

/** Runs the batch analytics ({@code analyze --in FILE --out FILE}) over one input file. */
public interface Analyzer {
  void analyze(Path in, Path out) throws Exception;

  /**
   * Like {@link #analyze(Path, Path)} with an analytics configuration file ({@code analyze --config
   * FILE}), for a scenario whose site runs non-default settings; null: the defaults. An analyzer
   * that cannot take one refuses it rather than running with the defaults.
   */
  default void analyze(Path in, Path out, Path config) throws Exception {
    if (config != null) {
      throw new UnsupportedOperationException(describe() + " takes no analytics config");
    }
    analyze(in, out);
  }

  /** A short description for logs and reports. */
  String describe();
}
