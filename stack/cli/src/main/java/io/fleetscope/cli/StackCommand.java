package io.fleetscope.cli;

import io.fleetscope.stack.services.StackCommands;
import io.fleetscope.stack.services.StackConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** {@code up | down | status}: the local infrastructure (Kafka, registry, PostgreSQL+TimescaleDB, Alertmanager). */
final class StackCommand {
  static int run(String cmd, String[] argv, PrintStream out, PrintStream err) {
    Args.parse(argv, Set.of(), Set.of()); // no options: refuse unknown ones clearly
    StackConfig cfg = config();
    switch (cmd) {
      case "up":
        return StackCommands.up(cfg, out);
      case "down":
        return StackCommands.down(cfg, out);
      default:
        return StackCommands.status(cfg, out);
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
