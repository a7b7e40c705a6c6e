package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * One reading: cumulative CPU seconds (user + system) and resident set size in KiB, of the
   * process and every live descendant, plus the CPU of descendants that have exited and were
   * reaped (PostgreSQL's backends are children of the postmaster: without them the database's
   * work would not show). The resident size counts each process's private memory (RssAnon) and
   * the root's file-backed and shared memory once, so shared buffers are not summed per backend.
   */
  public record Reading(double cpuSeconds, long rssKib) {}

  /** The process tree's current reading, empty when the process is gone. */
  public java.util.Optional<Reading> read(long pid) {
    return read(pid, childrenByParent());
  }

  /** Readings of several process trees from one listing of the process table (absent: gone). */
  public Map<String, Reading> readAll(Map<String, Long> pids) {
    Map<Long, List<Long>> children = childrenByParent();
    Map<String, Reading> out = new HashMap<>();
    pids.forEach((name, pid) -> read(pid, children).ifPresent(r -> out.put(name, r)));
    return out;
  }

  private java.util.Optional<Reading> read(long pid, Map<Long, List<Long>> children) {
    try {
      String rootStat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
      String rootStatus = Files.readString(proc.resolve(Long.toString(pid)).resolve("status"));
      double cpu = cpuSeconds(rootStat) + reapedChildrenCpuSeconds(rootStat);
      long rss = field(rootStatus, "RssAnon:").orElse(rssKib(rootStatus).orElse(0))
          + field(rootStatus, "RssFile:").orElse(0) + field(rootStatus, "RssShmem:").orElse(0);
      for (long child : descendants(pid, children)) {
        try {
          cpu += cpuSeconds(Files.readString(proc.resolve(Long.toString(child)).resolve("stat")));
          rss += field(Files.readString(proc.resolve(Long.toString(child)).resolve("status")), "RssAnon:").orElse(0);
        } catch (IOException | RuntimeException gone) {
          // exited between the listing and the read: its CPU shows in the parent's reaped time
        }
      }
      return java.util.Optional.of(new Reading(cpu, rss));
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }

  /** Every live process's children, by parent pid: one pass over the process table. */
  private Map<Long, List<Long>> childrenByParent() {
    Map<Long, List<Long>> children = new HashMap<>();
    try (var dirs = Files.list(proc)) {
      dirs.forEach(d -> {
        String name = d.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          return;
        }
        try {
          long ppid = parentPid(Files.readString(d.resolve("stat")));
          children.computeIfAbsent(ppid, k -> new ArrayList<>()).add(Long.parseLong(name));
        } catch (IOException | RuntimeException gone) {
          // a process that exited while listing
        }
      });
    } catch (IOException e) {
      return Map.of();
    }
    return children;
  }

  /** Live descendants of {@code pid} (children, their children, ...). */
  private static List<Long> descendants(long pid, Map<Long, List<Long>> children) {
    List<Long> out = new ArrayList<>();
    ArrayDeque<Long> todo = new ArrayDeque<>(children.getOrDefault(pid, List.of()));
    while (!todo.isEmpty()) {
      long c = todo.poll();
      out.add(c);
      todo.addAll(children.getOrDefault(c, List.of()));
    }
    return out;
  }

  /** The parent pid of a /proc/PID/stat line. */
  static long parentPid(String statLine) {
    return Long.parseLong(afterCommand(statLine)[1]);
  }

  /** cutime + cstime of a /proc/PID/stat line (children that exited and were waited for), in seconds. */
  public static double reapedChildrenCpuSeconds(String statLine) {
    String[] f = afterCommand(statLine);
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / (double) CLOCK_TICKS_PER_S;
  }

  private static String[] afterCommand(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/PID/stat line");
    }
    return statLine.substring(close + 2).trim().split("\\s+");
  }

  /** utime + stime of a /proc/PID/stat line, in seconds; the command name may contain spaces and parentheses. */
  public static double cpuSeconds(String statLine) {
    String[] f = afterCommand(statLine);
    // after "pid (comm) ": state=f[0], ..., utime is field 14 overall = f[11], stime = f[12]
    long utime = Long.parseLong(f[11]);
    long stime = Long.parseLong(f[12]);
    return (utime + stime) / (double) CLOCK_TICKS_PER_S;
  }

  /** VmRSS of a /proc/PID/status text, KiB. */
  public static OptionalLong rssKib(String status) {
    return field(status, "VmRSS:");
  }

  /** A "Name:  123 kB" field of a /proc/PID/status text, KiB. */
  static OptionalLong field(String status, String name) {
    for (String line : status.split("\n")) {
      if (line.startsWith(name)) {
        return OptionalLong.of(Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]));
      }
    }
    return OptionalLong.empty();
  }
}
