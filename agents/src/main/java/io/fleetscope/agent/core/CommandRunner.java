package io.fleetscope.agent.core;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a configured command line with a deadline: the process (and its children) is killed when the
 * deadline passes or the calling thread is interrupted. Commands run in the config file's directory,
 * so replay configs can {@code cat} captures by relative path.
 */
public final class CommandRunner {
  /**
   * Kills a process when its time is up, so a command that never closes stdout cannot hang us. One
   * shared daemon thread for every command (a thread per command cost a thread start each second).
   */
  private static final ScheduledThreadPoolExecutor WATCHDOG = new ScheduledThreadPoolExecutor(1, r -> {
    Thread t = new Thread(r, "cmd-watchdog");
    t.setDaemon(true);
    return t;
  });

  static {
    WATCHDOG.setRemoveOnCancelPolicy(true);
  }

  private final Path workDir;

  public CommandRunner(Path workDir) {
    this.workDir = workDir;
  }

  public record Result(int exitCode, byte[] stdout, String stderr) {
    public String stdoutText() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  /** Runs {@code cmd}; throws on timeout, on a missing program, or when it exits non-zero. */
  public Result runChecked(List<String> cmd, Duration timeout) throws IOException, InterruptedException, TimeoutException {
    Result r = run(cmd, timeout);
    if (r.exitCode != 0) {
      throw new IOException("command " + cmd.get(0) + " exited " + r.exitCode + (r.stderr.isBlank() ? "" : ": " + firstLine(r.stderr)));
    }
    return r;
  }

  public Result run(List<String> cmd, Duration timeout) throws IOException, InterruptedException, TimeoutException {
    File err = Files.createTempFile("fleetscope-cmd", ".err").toFile();
    Process p;
    try {
      p = new ProcessBuilder(cmd)
          .directory(workDir.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectError(err)
          .start();
    } catch (IOException e) {
      err.delete();
      throw new IOException("cannot run " + cmd.get(0) + ": " + e.getMessage(), e);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      ScheduledFuture<?> killer = WATCHDOG.schedule(() -> kill(p), timeout.toNanos(), TimeUnit.NANOSECONDS);
      byte[] out;
      try (InputStream in = p.getInputStream()) {
        out = in.readAllBytes();
      }
      long left = deadline - System.nanoTime();
      if (!p.waitFor(Math.max(left, 0), TimeUnit.NANOSECONDS)) {
        kill(p);
        throw new TimeoutException("command " + cmd.get(0) + " did not finish within " + timeout.toMillis() + "ms");
      }
      killer.cancel(false);
      if (System.nanoTime() > deadline && p.exitValue() != 0) {
        throw new TimeoutException("command " + cmd.get(0) + " killed after " + timeout.toMillis() + "ms");
      }
      String stderr = Files.readString(err.toPath(), StandardCharsets.UTF_8);
      return new Result(p.exitValue(), out, stderr);
    } catch (InterruptedException | IOException e) {
      kill(p);
      throw e;
    } finally {
      err.delete();
    }
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
