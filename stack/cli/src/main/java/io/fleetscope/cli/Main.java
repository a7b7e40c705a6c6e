package io.fleetscope.cli;

import io.fleetscope.agent.AgentMain;
import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.loadgen.BenchCommand;
import io.fleetscope.loadgen.LoadgenCommand;
import io.fleetscope.loadgen.bench.Analyzer;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.streams.CorrelatorConfig;
import io.fleetscope.sink.query.QueryMain;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/**
 * The {@code fleetscope} command: one picocli command line whose sub-commands are the commands of
 * this module (run, demo, tail, publish, replay, backtest, incident, up, down, status) and the typed
 * commands of the modules that own the others (agent, loadgen, analyze, query, export, bench).
 */
public final class Main {
  private Main() {}

  public static void main(String[] argv) {
    System.exit(run(argv, System.out, System.err));
  }

  /** Parses {@code argv} and runs the command; the exit code (2: a command-line mistake). */
  static int run(String[] argv, PrintStream out, PrintStream err) {
    return commandLine(out, err, System.getenv()).execute(argv);
  }

  /** Every command, printing to {@code out} and {@code err}; {@code env} supplies the endpoint defaults. */
  static CommandLine commandLine(PrintStream out, PrintStream err, Map<String, String> env) {
    CommandLine cl = new CommandLine(new FleetscopeCommand(out));
    cl.addSubcommand(new DemoCommand(out, err));
    cl.addSubcommand(new StackCommand.Up(out));
    cl.addSubcommand(new StackCommand.Down(out));
    cl.addSubcommand(new StackCommand.Status(out));
    cl.addSubcommand(new RunCommand(out, err));
    cl.addSubcommand(new AgentMain(out, err, BuiltinCollectors.registry()));
    cl.addSubcommand(new LoadgenCommand());
    cl.addSubcommand(new TailCommand(out, err));
    cl.addSubcommand(new PublishCommand(out, err));
    cl.addSubcommand(new AnalyzeMain(new BundleIncidents(CorrelatorConfig.defaults())));
    cl.addSubcommand("query", QueryMain.commandLine(new QueryMain(env, out, err), out, err));
    cl.addSubcommand(new ExportMain(env, out, err));
    cl.addSubcommand("incident", IncidentCommand.commandLine(env, out, err));
    cl.addSubcommand(new ReplayCommand(out, err));
    cl.addSubcommand(new BacktestCommand(out));
    cl.addSubcommand(new BenchCommand(inProcessAnalytics(), options -> chaos(out).run(options)));
    cl.addSubcommand(new CommandLine.HelpCommand());
    return CommandLines.configure(cl, out, err);
  }

  /**
   * {@code bench chaos}: the local stack on its default ports in a state directory of its own
   * ({@code <state>/chaos}, wiped at each run), so the faults never touch the data of {@code up}.
   */
  static ChaosBench chaos(PrintStream out) {
    var base = StackCommand.config();
    return new ChaosBench(base.withStateDir(base.stateDir().resolve("chaos")),
        ClusterAnalytics.jobJar(StackCommand.root()), Pipeline.CORRELATOR_HTTP_PORT,
        NotificationReceiver.DEFAULT_PORT, out)
        .withAgent(StackCommand.root().resolve("agents/target/fleetscope-agent.jar"),
            StackCommand.root().resolve("agents/examples"));
  }

  /**
   * {@code bench detect}'s analytics: flink-jobs' batch analytics in this JVM, with their default
   * settings or a scenario's analytics overrides.
   */
  static Analyzer inProcessAnalytics() {
    return new Analyzer() {
      @Override
      public void analyze(Path in, Path out) throws Exception {
        AnalyzeMain.analyzeFile(in, null, out, null, null);
      }

      @Override
      public void analyze(Path in, Path out, Path config) throws Exception {
        AnalyzeMain.analyzeFile(in, config, out, null, null);
      }

      @Override
      public String describe() {
        return "AnalyzeMain (in this JVM)";
      }
    };
  }
}
