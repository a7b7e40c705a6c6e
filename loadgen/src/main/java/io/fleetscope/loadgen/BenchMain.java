package io.fleetscope.loadgen;

import io.fleetscope.schemas.cli.CommandLines;

/**
 * Entry point of {@code bench} on its own ({@link BenchCommand}): without the analytics in this JVM,
 * {@code bench detect} needs {@code --analyze-cmd}; {@code ./fleetscope bench} runs the same command
 * with the analytics in its JVM.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    int rc = CommandLines.execute(new BenchCommand(null), args);
    if (rc != 0) {
      System.exit(rc);
    }
  }
}
