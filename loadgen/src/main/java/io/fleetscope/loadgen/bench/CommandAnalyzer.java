package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an external analyze command through {@code bash -c}; {@code {in}} and {@code {out}} in the
 * command are replaced by the (quoted) file paths, e.g. {@code ./fleetscope analyze --in {in} --out {out}}.
 * Its output goes to {@code <out>.log}; a non-zero exit or a timeout is an error quoting that log's tail.
 */
public final class CommandAnalyzer implements Analyzer {
  private final String template;
  private final long timeoutS;

  public CommandAnalyzer(String template, long timeoutS) {
    if (!template.contains("{in}") || !template.contains("{out}")) {
      throw new IllegalArgumentException("--analyze-cmd must contain {in} and {out}, got: " + template);
    }
    this.template = template;
    this.timeoutS = timeoutS;
  }

  static String quote(Path p) {
    return "'" + p.toString().replace("'", "'\\''") + "'";
  }

  public String command(Path in, Path out) {
    return template.replace("{in}", quote(in)).replace("{out}", quote(out));
  }

  @Override
  public void analyze(Path in, Path out) throws IOException, InterruptedException {
    analyze(in, out, null);
  }

  /** The command with {@code --config FILE} appended when a config is given. */
  @Override
  public void analyze(Path in, Path out, Path config) throws IOException, InterruptedException {
    String cmd = command(in, out) + (config == null ? "" : " --config " + quote(config));
    Path log = out.resolveSibling(out.getFileName() + ".log");
    Process p = new ProcessBuilder(List.of("bash", "-c", cmd)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("analyze command timed out after " + timeoutS + " s: " + cmd);
    }
    if (p.exitValue() != 0) {
      List<String> lines = Files.readAllLines(log);
      String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
      throw new IOException("analyze command exited " + p.exitValue() + ": " + cmd + "\n" + tail);
    }
    if (!Files.exists(out)) {
      throw new IOException("analyze command wrote no output file " + out);
    }
  }

  @Override
  public String describe() {
    return template;
  }
}
