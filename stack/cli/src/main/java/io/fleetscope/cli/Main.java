package io.fleetscope.cli;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code fleetscope} command: dispatches to the module that owns each sub-command. */
public final class Main {

  /** Sub-commands implemented by other modules: name -> main class (called with the remaining args). */
  static final Map<String, String> DELEGATED = new LinkedHashMap<>();
  static final Map<String, String> HELP = new LinkedHashMap<>();

  static {
    HELP.put("demo", "[--minutes N] [--nodes N]   whole pipeline on local services, simulated fleet with a scripted incident");
    HELP.put("test", "install what is missing, run every test (handled by the ./fleetscope script)");
    HELP.put("up", "start local infrastructure: Kafka, schema registry, PostgreSQL+TimescaleDB, Alertmanager, Flink");
    HELP.put("down", "stop the local infrastructure (running Flink jobs first, with a savepoint)");
    HELP.put("status", "endpoints and health of the local infrastructure");
    HELP.put("run", "[--config FILE] [--fresh] [--allow-non-restored-state] [--engine cluster|minicluster] [--parallelism N]"
        + "   analytics on Flink (resumed from the newest savepoint or checkpoint), correlator, sink and console");
    HELP.put("agent", "--config FILE [--once] [--dry-run]   the node/facility agent");
    HELP.put("loadgen", "--nodes N [--gpus-per-node 8] [--interval 1s] [--scenario NAME] [--duration D] [--seed S] (--kafka | --out FILE.jsonl)");
    HELP.put("tail", "TOPIC [--from-beginning] [--max N] [--idle-timeout S]   decode a topic to JSON lines");
    HELP.put("publish", "--in FILE.jsonl   encode JSON lines and publish them");
    HELP.put("analyze", "--in FILE [--config FILE] --out FILE.jsonl   every analytic, bounded, over a file");
    HELP.put("query", "[NAME [--param k=v ...] [--format table|csv|json]]   SRE history queries; no NAME lists them");
    HELP.put("export", "--from TIME --to TIME [--where rack=R1 ...] --out DIR   an incident's data as JSON lines");
    HELP.put("replay", "DIR [--speed max|1x]   publish an exported dataset back to Kafka");
    HELP.put("bench", "detect | pipeline [--gpus N]   detection scores; whole-pipeline load run");

    DELEGATED.put("loadgen", "io.fleetscope.loadgen.LoadgenMain");
    DELEGATED.put("analyze", "io.fleetscope.flink.AnalyzeMain");
    DELEGATED.put("query", "io.fleetscope.sink.query.QueryMain");
    DELEGATED.put("export", "io.fleetscope.sink.ExportMain");
    DELEGATED.put("bench", "io.fleetscope.loadgen.BenchMain");
    DELEGATED.put("agent", "io.fleetscope.agent.AgentMain");
  }

  public static void main(String[] argv) {
    System.exit(run(argv, System.out, System.err));
  }

  static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length == 0 || argv[0].equals("help") || argv[0].equals("--help")) {
      usage(out);
      return 0;
    }
    String cmd = argv[0];
    String[] rest = Arrays.copyOfRange(argv, 1, argv.length);
    Endpoints endpoints = Endpoints.fromEnvironment(System.getenv());
    try {
      switch (cmd) {
        case "tail":
          return TailCommand.run(rest, endpoints, out, err);
        case "publish":
          return PublishCommand.run(rest, endpoints, out, err);
        case "replay":
          return ReplayCommand.run(rest, endpoints, out, err);
        case "up":
        case "down":
        case "status":
          return StackCommand.run(cmd, rest, out, err);
        case "run":
          return RunCommand.run(rest, endpoints, out, err);
        case "demo":
          return DemoCommand.run(rest, endpoints, out, err);
        default:
          String cls = DELEGATED.get(cmd);
          if (cls == null) {
            err.println("fleetscope: unknown command '" + cmd + "'; commands: " + String.join(", ", HELP.keySet()));
            return 2;
          }
          return delegate(cls, rest);
      }
    } catch (Args.UsageException e) {
      err.println("fleetscope " + cmd + ": " + e.getMessage());
      return 2;
    } catch (IllegalArgumentException e) {
      err.println("fleetscope " + cmd + ": " + e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("fleetscope " + cmd + ": error=" + e.getClass().getSimpleName() + " message=\"" + e.getMessage() + "\"");
      return 1;
    }
  }

  static int delegate(String className, String[] args) throws Exception {
    Class<?> c;
    try {
      c = Class.forName(className);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("this build has no " + className);
    }
    Method m = c.getMethod("main", String[].class);
    try {
      m.invoke(null, (Object) args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof Exception) {
        throw (Exception) t;
      }
      throw e;
    }
    return 0;
  }

  static void usage(PrintStream out) {
    out.println("usage: ./fleetscope COMMAND [options]");
    HELP.forEach((k, v) -> out.printf("  %-8s %s%n", k, v));
    out.println("Endpoints default to the local stack; override with FLEETSCOPE_KAFKA, FLEETSCOPE_REGISTRY,");
    out.println("FLEETSCOPE_JDBC_URL, FLEETSCOPE_ALERTMANAGER, FLEETSCOPE_CONSOLE_PORT, FLEETSCOPE_FLINK or the matching --flags.");
  }

  private Main() {}
}
