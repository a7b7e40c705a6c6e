package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** CPU time and resident memory of a process from /proc (Linux). */
public final class ProcStats {
  /** USER_HZ: the unit of utime/stime in /proc/PID/stat (100 on Linux x86 and arm). */
  public static final long CLOCK_TICKS_PER_S = 100;

  private final Path proc;

  public ProcStats(Path procRoot) {
    this.proc = procRoot;
  }

  public ProcStats() {
    this(Path.of("/proc"));
  }

  /** One reading: cumulative CPU seconds (user + system) and resident set size in KiB. */
  public record Reading(double cpuSeconds, long rssKib) {}

  /** The process's current reading, empty when it is gone. */
  public java.util.Optional<Reading> read(long pid) {
    try {
      String stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
      String status = Files.readString(proc.resolve(Long.toString(pid)).resolve("status"));
      return java.util.Optional.of(new Reading(cpuSeconds(stat), rssKib(status).orElse(0)));
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }

  /** utime + stime of a /proc/PID/stat line, in seconds; the command name may contain spaces and parentheses. */
  public static double cpuSeconds(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/PID/stat line");
    }
    String[] f = statLine.substring(close + 2).trim().split("\\s+");
    // after "pid (comm) ": state=f[0], ..., utime is field 14 overall = f[11], stime = f[12]
    long utime = Long.parseLong(f[11]);
    long stime = Long.parseLong(f[12]);
    return (utime + stime) / (double) CLOCK_TICKS_PER_S;
  }

  /** VmRSS of a /proc/PID/status text, KiB. */
  public static OptionalLong rssKib(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("VmRSS:")) {
        return OptionalLong.of(Long.parseLong(line.substring(6).trim().split("\\s+")[0]));
      }
    }
    return OptionalLong.empty();
  }
}
