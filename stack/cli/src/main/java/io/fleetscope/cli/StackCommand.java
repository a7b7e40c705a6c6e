package io.fleetscope.cli;

import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.stack.services.StackCommands;
import io.fleetscope.stack.services.StackConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code up | down | status}: the local infrastructure (Kafka, registry, PostgreSQL+TimescaleDB,
 * Alertmanager, Flink), and its settings, which {@code run} and {@code demo} use too.
 */
final class StackCommand {

  /** {@code up}. */
  @Command(name = "up",
      description = "Starts the local infrastructure: Kafka, schema registry, PostgreSQL+TimescaleDB, Alertmanager, Flink.")
  static final class Up implements Callable<Integer> {
    @Mixin HelpOption help;
    private final PrintStream out;

    Up(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() {
      return StackCommands.up(config(), out);
    }
  }

  /** {@code down}. */
  @Command(name = "down", description = "Stops the local infrastructure (running Flink jobs first, with a savepoint).")
  static final class Down implements Callable<Integer> {
    @Mixin HelpOption help;
    private final PrintStream out;

    Down(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() {
      return StackCommands.down(config(), out);
    }
  }

  /** {@code status}. */
  @Command(name = "status", description = "Endpoints and health of the local infrastructure.")
  static final class Status implements Callable<Integer> {
    @Mixin HelpOption help;
    private final PrintStream out;

    Status(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() {
      return StackCommands.status(config(), out);
    }
  }

  /** The stack's settings: FLEETSCOPE_* environment over the defaults, the example Alertmanager config. */
  static StackConfig config() {
    Path root = root();
    StackConfig cfg = StackConfig.fromEnv(System.getenv(), root);
    String home = System.getProperty("fleetscope.home");
    if (home != null && System.getenv("FLEETSCOPE_STATE_DIR") == null) {
      cfg = cfg.withStateDir(Path.of(home));
    }
    Path example = root.resolve("deploy/alertmanager/alertmanager.yml");
    if (cfg.alertmanagerConfig() == null && Files.isRegularFile(example)) {
      cfg = cfg.withAlertmanagerConfig(example);
    }
    return cfg;
  }

  static Path root() {
    return Path.of(System.getProperty("fleetscope.root", ".")).toAbsolutePath().normalize();
  }

  private StackCommand() {}
}
