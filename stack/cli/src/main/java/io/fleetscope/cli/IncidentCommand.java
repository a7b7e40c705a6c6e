package io.fleetscope.cli;

import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.sink.export.IncidentExportMain;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code incident export ID --out DIR}: the commands about one incident (today: its postmortem bundle). */
@Command(name = "incident", description = "Commands about one incident: export ID --out DIR writes its postmortem bundle.")
final class IncidentCommand implements Runnable {
  @Mixin HelpOption help;

  private final PrintStream out;

  private IncidentCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public void run() {
    out.println("incident: name a command: export ID --out DIR (fleetscope incident export --help)");
  }

  static CommandLine commandLine(Map<String, String> env, PrintStream out, PrintStream err) {
    return new CommandLine(new IncidentCommand(out)).addSubcommand(new IncidentExportMain(env, out, err));
  }
}
