package io.fleetscope.agent.core;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One long-running command kept running, for a tool with a loop mode (e.g. {@code nvidia-smi
 * --query-gpu=... -lms 1000}, which initialises NVML once instead of once per round). Its stdout is
 * read line by line on one daemon thread and each line handed to {@link Lines} as it arrives (never
 * collected into one string). When the process exits, cannot start, or is stopped by
 * {@link #restart} (a stall), it is started again after a backoff that doubles from
 * {@link #MIN_BACKOFF} to {@link #MAX_BACKOFF} and falls back to the minimum once a run lasted
 * {@link #HEALTHY_RUN}. {@link #close} stops it and its children. One log line per event.
 */
public final class StreamingCommand implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StreamingCommand.class);

  static final Duration MIN_BACKOFF = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
  static final Duration HEALTHY_RUN = Duration.ofSeconds(60);
  /** The running process's stderr (kept in a temporary file for the exit's log line) is cut back to empty above this. */
  static final long MAX_STDERR = 1 << 20;

  /** What the reading thread hands on; called on that thread only. */
  public interface Lines {
    /** One complete line of stdout, without its line end. */
    void line(String line);

    /** The last line was the last one written so far: the tool is between two outputs. */
    void pause();

    /** A (new) process was started: whatever the last one printed is over. */
    void started();
  }

  private final String name;
  private final List<String> command;
  private final Path workDir;
  private final Lines lines;
  private final Duration minBackoff;
  private final Object lock = new Object();
  private Process process;
  private Thread reader;
  private volatile boolean closed;
  private volatile long lastLineNanos = System.nanoTime();
  private volatile String stopReason;

  /**
   * @param name the collector's name, for the thread and log lines
   * @param workDir where the command runs (the config file's directory, as for {@link CommandRunner})
   */
  public StreamingCommand(String name, List<String> command, Path workDir, Lines lines) {
    this(name, command, workDir, lines, MIN_BACKOFF);
  }

  StreamingCommand(String name, List<String> command, Path workDir, Lines lines, Duration minBackoff) {
    this.name = name;
    this.command = List.copyOf(command);
    this.workDir = workDir;
    this.lines = lines;
    this.minBackoff = minBackoff;
  }

  /** Starts the reading thread (and the first process) once; later calls do nothing. */
  public void start() {
    synchronized (lock) {
      if (reader != null || closed) return;
      lastLineNanos = System.nanoTime();
      reader = new Thread(this::loop, "stream-" + name);
      reader.setDaemon(true);
      reader.start();
    }
  }

  /** Nanos ({@link System#nanoTime}) of the last line read, or of the last start when none came since. */
  public long lastLineNanos() {
    return lastLineNanos;
  }

  /** Whether a process is running now. */
  public boolean running() {
    synchronized (lock) {
      return process != null && process.isAlive();
    }
  }

  /** Stops the running process (it is started again after the backoff); {@code reason} goes into the exit's log line. */
  public void restart(String reason) {
    synchronized (lock) {
      if (process == null || !process.isAlive()) return;
      stopReason = reason;
      kill(process);
    }
  }

  private void loop() {
    long backoff = minBackoff.toMillis();
    File err = null;
    try {
      err = Files.createTempFile("fleetscope-stream", ".err").toFile();
      while (!closed) {
        long t0 = System.nanoTime();
        String outcome = runOnce(err);
        if (closed) break;
        long ran = (System.nanoTime() - t0) / 1_000_000;
        if (ran >= HEALTHY_RUN.toMillis()) backoff = minBackoff.toMillis();
        log.warn("command stream ended collector={} command={} {} ran_ms={} restart_in_ms={}", name, command.get(0), outcome, ran, backoff);
        Thread.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      log.error("command stream stopped collector={} error={}", name, e.getMessage());
    } finally {
      if (err != null) err.delete();
    }
  }

  /** Runs the command until its stdout ends; returns what happened, as key=value text for the log. */
  private String runOnce(File err) throws InterruptedException {
    Process p;
    synchronized (lock) {
      if (closed) return "reason=closed";
      try {
        truncate(err);
        // appended, so that truncating it while the process runs leaves no hole
        p = new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectError(ProcessBuilder.Redirect.appendTo(err))
            .start();
      } catch (IOException e) {
        return "reason=cannot-start error=\"" + e.getMessage() + "\"";
      }
      process = p;
      stopReason = null;
    }
    lines.started();
    lastLineNanos = System.nanoTime();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      long read = 0;
      while ((line = in.readLine()) != null) {
        lastLineNanos = System.nanoTime();
        lines.line(line);
        if (!in.ready()) lines.pause();
        // a tool that warns on every probe must not fill the disk: its stderr is kept to MAX_STDERR
        if (++read % 1024 == 0 && err.length() > MAX_STDERR) truncateQuietly(err);
      }
    } catch (IOException e) {
      // the stream closed under us (killed); the exit code below says the rest
    }
    kill(p);
    p.waitFor();
    String why = stopReason != null ? "reason=" + stopReason : "reason=exited";
    return why + " code=" + p.exitValue() + stderr(err);
  }

  private static void truncate(File f) throws IOException {
    try (var ch = java.nio.channels.FileChannel.open(f.toPath(), java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(0);
    }
  }

  private static void truncateQuietly(File f) {
    try {
      truncate(f);
    } catch (IOException e) {
      log.warn("command stream stderr not truncated file={} error={}", f, e.getMessage());
    }
  }

  private static String stderr(File err) {
    try {
      String s = Files.readString(err.toPath(), StandardCharsets.UTF_8).strip();
      if (s.isEmpty()) return "";
      String first = CommandRunner.firstLine(s);
      if (first.length() > 200) first = first.substring(0, 200);
      return " stderr=\"" + first.replace('"', '\'') + "\"";
    } catch (IOException e) {
      return "";
    }
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  @Override
  public void close() {
    Thread t;
    synchronized (lock) {
      closed = true;
      if (process != null) kill(process);
      t = reader;
    }
    if (t != null) {
      t.interrupt();
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
