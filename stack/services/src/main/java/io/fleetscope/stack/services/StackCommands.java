package io.fleetscope.stack.services;

import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code fleetscope up | down | status}: one line per service on stdout,
 * {@code service=kafka endpoint=127.0.0.1:19092 health=ok ...}; exit code 0 when every service
 * is in the wanted state (up/status: healthy; down: stopped), 1 otherwise, 2 for bad usage.
 */
public final class StackCommands {
  private StackCommands() {}

  public static int up(StackConfig config) {
    return up(config, System.out);
  }

  public static int down(StackConfig config) {
    return down(config, System.out);
  }

  public static int status(StackConfig config) {
    return status(config, System.out);
  }

  public static int up(StackConfig config, PrintStream out) {
    try {
      List<LocalStack.ServiceStatus> s = new LocalStack(config).up();
      return print(s, out, true);
    } catch (RuntimeException e) {
      out.println("stack up failed error=\"" + oneLine(e.getMessage()) + "\" state_dir=" + config.stateDir());
      return 1;
    }
  }

  public static int down(StackConfig config, PrintStream out) {
    try {
      new LocalStack(config).down().forEach(s -> out.println(s.line()));
      return new LocalStack(config).status().stream().anyMatch(LocalStack.ServiceStatus::healthy) ? 1 : 0;
    } catch (RuntimeException e) {
      out.println("stack down failed error=\"" + oneLine(e.getMessage()) + "\"");
      return 1;
    }
  }

  public static int status(StackConfig config, PrintStream out) {
    return print(new LocalStack(config).status(), out, true);
  }

  private static int print(List<LocalStack.ServiceStatus> statuses, PrintStream out, boolean wantHealthy) {
    statuses.forEach(s -> out.println(s.line()));
    return statuses.stream().allMatch(s -> s.healthy() == wantHealthy) ? 0 : 1;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('"', '\'').replace("\n", " | ");
  }

  /** {@code up | down | status}, configured by FLEETSCOPE_* environment variables (see {@link StackConfig}). */
  public static void main(String[] args) {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
    System.exit(CommandLines.execute(new Action(), args));
  }

  /** The command line of {@link #main}: one action, the settings from the environment. */
  @Command(name = "StackCommands", description = "Starts, stops or reports the local stack, configured by FLEETSCOPE_*"
      + " environment variables (StackConfig).")
  static final class Action implements Callable<Integer> {
    /** What to do. */
    enum Verb { up, down, status }

    @Mixin HelpOption help;

    @Parameters(paramLabel = "up|down|status", description = "the action")
    Verb verb;

    @Override
    public Integer call() {
      StackConfig config = StackConfig.fromEnv(System.getenv(), Path.of("").toAbsolutePath());
      return switch (verb) {
        case up -> up(config);
        case down -> down(config);
        case status -> status(config);
      };
    }
  }
}
