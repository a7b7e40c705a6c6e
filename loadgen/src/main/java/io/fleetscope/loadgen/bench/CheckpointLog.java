package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checkpoints the analytics completed during a run, from the line Flink's CheckpointCoordinator
 * logs for each: {@code <ISO time> ... Completed checkpoint N for job J (B bytes, checkpointDuration=D
 * ms, ...)}. The same line is in the JobManager's log on the session cluster
 * ({@code STATE/flink/log/jobmanager.log}) and in the analytics' log with the MiniCluster engine
 * ({@code STATE/logs/analytics.log}). The bytes are what the checkpoint wrote: the whole state with
 * file checkpoints, the changed part with RocksDB's incremental ones.
 */
public final class CheckpointLog {
  private static final Pattern COMPLETED = Pattern.compile(
      "^(\\S+).*Completed checkpoint (\\d+) for job \\S+ \\((\\d+) bytes, checkpointDuration=(\\d+) ms");

  /**
   * One completed checkpoint; {@code bytes} is the state size Flink logs for it, the whole state (with
   * RocksDB's incremental checkpoints more than was uploaded that time).
   */
  public record Completed(Instant at, long id, long bytes, long durationMs) {}

  /** Count, median and largest size and duration of a run's checkpoints. */
  public record Stats(String source, int count, long medianBytes, long maxBytes, long medianDurationMs, long maxDurationMs) {
    public String markdown() {
      return String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %d | %d |%n", source, count, medianBytes / 1048576.0,
          maxBytes / 1048576.0, medianDurationMs, maxDurationMs);
    }

    public static String header() {
      return "| checkpoints from | completed | state MiB (median) | state MiB (max) | duration ms (median) | duration ms (max) |\n"
          + "|---|---|---|---|---|---|\n";
    }
  }

  private CheckpointLog() {}

  /** The completed checkpoints in these log lines; lines without a parseable time are skipped. */
  public static List<Completed> parse(List<String> lines) {
    List<Completed> out = new ArrayList<>();
    for (String line : lines) {
      Matcher m = COMPLETED.matcher(line);
      if (!m.find()) {
        continue;
      }
      Instant at;
      try {
        at = OffsetDateTime.parse(m.group(1)).toInstant();
      } catch (DateTimeParseException e) {
        continue;
      }
      out.add(new Completed(at, Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
    }
    return out;
  }

  /** The checkpoints completed in [{@code from}, {@code to}] according to {@code log}; empty when it does not exist. */
  public static List<Completed> read(Path log, Instant from, Instant to) {
    if (!Files.isRegularFile(log)) {
      return List.of();
    }
    try {
      return parse(Files.readAllLines(log, StandardCharsets.UTF_8)).stream()
          .filter(c -> !c.at().isBefore(from) && !c.at().isAfter(to)).toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The stats of these checkpoints (null when there are none). */
  public static Stats stats(String source, List<Completed> cs) {
    if (cs.isEmpty()) {
      return null;
    }
    double[] bytes = cs.stream().mapToDouble(Completed::bytes).toArray();
    double[] ms = cs.stream().mapToDouble(Completed::durationMs).toArray();
    return new Stats(source, cs.size(), Math.round(Percentiles.median(bytes)), cs.stream().mapToLong(Completed::bytes).max().orElse(0),
        Math.round(Percentiles.median(ms)), cs.stream().mapToLong(Completed::durationMs).max().orElse(0));
  }
}
