package io.fleetscope.schemas.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Builds and runs the picocli command line of an entry point the same way everywhere: durations in
 * the {@link DurationSyntax}, a usage mistake answered with one line naming it, the command's
 * synopsis and exit code 2, {@link IllegalArgumentException} from the command (a value that parses
 * but does not make sense) the same way, and any other failure as one
 * {@code error=Type message="..."} line with exit code 1.
 */
public final class CommandLines {
  /** Exit code of a command-line mistake. */
  public static final int USAGE = 2;
  /** Exit code of a failure while running. */
  public static final int FAILED = 1;

  private CommandLines() {}

  /** The command line of {@code command} (a {@code @Command}), printing to stdout and stderr. */
  public static CommandLine create(Object command) {
    return create(command, System.out, System.err);
  }

  /** The command line of {@code command} printing its output to {@code out} and its errors to {@code err}. */
  public static CommandLine create(Object command, PrintStream out, PrintStream err) {
    return configure(new CommandLine(command), out, err);
  }

  /**
   * Applies the shared settings to {@code cl} and every subcommand it has now: call it again after
   * adding subcommands to a command line (picocli applies settings to the hierarchy of the moment).
   */
  public static CommandLine configure(CommandLine cl, PrintStream out, PrintStream err) {
    cl.registerConverter(Duration.class, new DurationConverter());
    cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    cl.setParameterExceptionHandler(CommandLines::usageError);
    cl.setExecutionExceptionHandler((ex, line, parsed) -> {
      PrintWriter w = line.getErr();
      if (ex instanceof IllegalArgumentException) {
        w.println(line.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
        w.flush();
        return USAGE;
      }
      Throwable root = rootCause(ex);
      w.println(line.getCommandSpec().qualifiedName() + ": error=" + ex.getClass().getSimpleName() + " message=\""
          + String.valueOf(ex.getMessage()).replace('"', '\'') + "\""
          + (root == ex ? "" : " cause=" + root.getClass().getSimpleName() + " cause_message=\""
              + String.valueOf(root.getMessage()).replace('"', '\'') + "\""));
      w.flush();
      return FAILED;
    });
    return cl;
  }

  /** Parses {@code args} and runs {@code command}; the exit code. */
  public static int execute(Object command, String[] args) {
    return create(command).execute(args);
  }

  /** As {@link #execute(Object, String[])} with the output going to {@code out} and {@code err}. */
  public static int execute(Object command, String[] args, PrintStream out, PrintStream err) {
    return create(command, out, err).execute(args);
  }

  private static int usageError(CommandLine.ParameterException ex, String[] args) {
    CommandLine line = ex.getCommandLine();
    PrintWriter w = line.getErr();
    w.println(line.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, w);
    w.print(line.getHelp().fullSynopsis());
    if (!line.getSubcommands().isEmpty()) {
      w.println("Commands: " + String.join(", ", line.getSubcommands().keySet()));
    }
    w.println("Try '" + line.getCommandSpec().qualifiedName() + " --help' for more.");
    w.flush();
    return USAGE;
  }

  /** The innermost cause: what an operator needs when a wrapper says only "failed". */
  static Throwable rootCause(Throwable ex) {
    Throwable t = ex;
    for (int depth = 0; t.getCause() != null && t.getCause() != t && depth < 32; depth++) {
      t = t.getCause();
    }
    return t;
  }
}
