package io.fleetscope.stack.services;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Starting and stopping the child processes the local services run in. */
public final class ChildProcesses {
  private ChildProcesses() {}

  /**
   * Starts {@code command} with stdout and stderr appended to {@code logFile} and stdin from
   * /dev/null. A detached child runs under {@code nohup} (same pid, SIGHUP ignored) so it
   * outlives this JVM and the terminal it was started from. (Not {@code setsid}: it forks when
   * the child leads its process group, and the pid we hold would be the wrong one.)
   */
  public static Process start(List<String> command, Path workDir, Path logFile, boolean detached,
      Map<String, String> env) {
    List<String> cmd = new ArrayList<>();
    if (detached && new File("/usr/bin/nohup").canExecute()) {
      cmd.add("/usr/bin/nohup");
    }
    cmd.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    pb.redirectErrorStream(true);
    try {
      Files.createDirectories(logFile.getParent());
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
    }
  }

  /** Runs a command to completion; returns its combined output, or throws with it when rc != 0. */
  public static String run(List<String> command, Path workDir, Duration timeout) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    try {
      Process p = pb.start();
      byte[] out;
      try (var in = p.getInputStream()) {
        out = in.readAllBytes();
      }
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out after " + timeout + ": " + String.join(" ", command));
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IllegalStateException("command failed rc=" + p.exitValue() + ": "
            + String.join(" ", command) + "\n" + text.strip());
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
    }
  }

  /** SIGTERM, wait up to {@code grace}, then SIGKILL; returns once the process is gone. */
  public static void stop(ProcessHandle handle, Duration grace) {
    if (!handle.isAlive()) {
      return;
    }
    handle.destroy();
    try {
      handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      handle.destroyForcibly();
      try {
        handle.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // reported by the caller's health check
      }
    }
  }

  /** The process with this pid, when it is alive. */
  public static Optional<ProcessHandle> alive(long pid) {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
  }

  /** The command line of a live process (from /proc, NUL separators as spaces), or "". */
  public static String commandLine(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (IOException e) {
      return ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("");
    }
  }

  /**
   * The first lines of a log that say what went wrong (ERROR/FATAL/Exception), at most {@code max},
   * for one-line error messages; the log's last line when none does.
   */
  public static String problems(Path file, int max) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<String> hits = all.stream()
          .filter(l -> l.contains(" ERROR ") || l.contains(" FATAL ") || l.contains("Exception:")
              || l.startsWith("Error") || l.contains("level=error"))
          .limit(max).toList();
      if (hits.isEmpty()) {
        return all.isEmpty() ? "(empty log " + file + ")" : all.get(all.size() - 1);
      }
      return String.join("\n", hits);
    } catch (IOException | UncheckedIOException e) {
      return "(no log at " + file + ")";
    }
  }

  /** The last {@code lines} lines of a log file, for error messages. */
  public static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log at " + file + ")";
    }
  }

  /** Resident set size of a process in KiB (from /proc), or -1 where unknown. */
  public static long rssKiB(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
