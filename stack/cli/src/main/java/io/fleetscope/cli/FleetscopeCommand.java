package io.fleetscope.cli;

import io.fleetscope.schemas.cli.HelpOption;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The top of the {@code fleetscope} command: its description and the usage when no command is
 * given. {@link Main} adds the commands, each owned by the module that implements it.
 */
@Command(name = "fleetscope",
    description = {"Streaming telemetry and anomaly pipeline for GPU clusters.",
        "./fleetscope test (handled by the launcher script) installs what is missing and runs every test."},
    footer = {"", "Endpoints default to the local stack; override them with FLEETSCOPE_KAFKA, FLEETSCOPE_REGISTRY,"
        + " FLEETSCOPE_JDBC_URL, FLEETSCOPE_ALERTMANAGER, FLEETSCOPE_CONSOLE_PORT, FLEETSCOPE_FLINK or the matching flags"
        + " (--kafka, --registry, --jdbc, ...). Durations: 500ms, 5s, 10m, 1h, 1m30s.",
        "fleetscope COMMAND --help describes a command."})
final class FleetscopeCommand implements Callable<Integer> {
  @Mixin HelpOption help;
  @Spec CommandSpec spec;

  private final PrintStream out;

  FleetscopeCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return 0;
  }
}
