package io.fleetscope.stack.services.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submitting a job jar so that its state survives: find the newest savepoint or retained checkpoint,
 * restore from it, recognise a restore that cannot work (naming the operator), stop with a
 * savepoint, and prune checkpoint directories that nothing needs any more.
 */
public final class FlinkJobs {
  private static final Logger log = LoggerFactory.getLogger(FlinkJobs.class);

  /** What a checkpoint-restore failure looks like in Flink's messages: the operator's 32-hex id. */
  private static final Pattern NOT_MAPPED = Pattern.compile(
      "Cannot map checkpoint/savepoint state for operator ([0-9a-f]{32}) to the new program");
  private static final Pattern MAX_PARALLELISM = Pattern.compile(
      "Cannot map operator ([0-9a-f]{32}) with max parallelism (\\d+) to new program with max parallelism (\\d+)");
  private static final Pattern OPERATOR_IN_TASK = Pattern.compile("_([0-9a-f]{32})_\\(\\d+/\\d+\\)");
  private static final List<String> RESTORE_MARKERS = List.of("StateMigrationException", "Could not restore",
      "Failed to restore", "incompatible with the old state serializer", "must not be incompatible",
      "Exception while creating StreamOperatorStateContext");

  private FlinkJobs() {}

  /** A savepoint or a retained checkpoint: the directory holding its {@code _metadata}. */
  public record RestorePoint(Kind kind, Path dir, FileTime written) {
    public enum Kind { SAVEPOINT, CHECKPOINT }

    /** The path Flink's REST API takes as {@code savepointPath}. */
    public String uri() {
      return dir.toAbsolutePath().toUri().toString();
    }
  }

  /** What to submit. */
  public record Submission(Path jar, String entryClass, List<String> args, int parallelism,
      Optional<RestorePoint> restore, boolean allowNonRestoredState) {}

  /**
   * A savepoint or checkpoint this program cannot restore: the operator (its uid where known, else
   * Flink's operator id), the restore point and Flink's reason.
   */
  public static final class UnrestorableStateException extends RuntimeException {
    private final String operator;
    private final String restorePath;

    UnrestorableStateException(String operator, String restorePath, String reason) {
      super("state of operator " + operator + " in " + restorePath + " cannot be restored: " + reason);
      this.operator = operator;
      this.restorePath = restorePath;
    }

    public String operator() {
      return operator;
    }

    public String restorePath() {
      return restorePath;
    }
  }

  /**
   * The newest savepoint ({@code savepointDir/savepoint-*}) or retained checkpoint
   * ({@code checkpointDir/JOB/chk-N}) that holds a {@code _metadata} file, by that file's time.
   */
  public static Optional<RestorePoint> newestRestorePoint(Path savepointDir, Path checkpointDir) {
    List<RestorePoint> all = new ArrayList<>();
    all.addAll(points(savepointDir, 1, RestorePoint.Kind.SAVEPOINT));
    all.addAll(points(checkpointDir, 2, RestorePoint.Kind.CHECKPOINT));
    return all.stream().max(Comparator.comparing(RestorePoint::written));
  }

  private static List<RestorePoint> points(Path root, int depth, RestorePoint.Kind kind) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> s = Files.find(root, depth + 1, (p, a) -> a.isRegularFile()
        && p.getFileName().toString().equals("_metadata"))) {
      List<RestorePoint> out = new ArrayList<>();
      for (Path m : s.toList()) {
        String dir = m.getParent().getFileName().toString();
        boolean named = kind == RestorePoint.Kind.SAVEPOINT ? dir.startsWith("savepoint-") : dir.startsWith("chk-");
        if (named) {
          out.add(new RestorePoint(kind, m.getParent(), Files.getLastModifiedTime(m)));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root + ": " + e.getMessage(), e);
    }
  }

  /**
   * Uploads the jar and runs it, restoring from {@code s.restore()} when present; returns the job id.
   * Throws {@link UnrestorableStateException} when Flink refuses the restore point for this program.
   */
  public static String submit(FlinkRest rest, Submission s, OperatorNames names) {
    String jarId = rest.uploadJar(s.jar());
    try {
      String restore = s.restore().map(RestorePoint::uri).orElse(null);
      try {
        return rest.runJar(jarId, new FlinkRest.RunRequest(s.entryClass(), s.args(), s.parallelism(), restore,
            s.allowNonRestoredState()));
      } catch (FlinkRest.RestException e) {
        throw unrestorable(e.getMessage(), restore, names).orElseThrow(() -> e);
      }
    } finally {
      try {
        rest.deleteJar(jarId);
      } catch (RuntimeException e) {
        log.debug("flink jar delete failed jar={} error={}", jarId, e.toString());
      }
    }
  }

  /**
   * Waits until every task of the job runs. A failure while restoring state cancels the job (it would
   * restart forever) and throws {@link UnrestorableStateException}; any other failure or the timeout
   * throws {@link IllegalStateException} with Flink's first line.
   */
  public static void awaitRunning(FlinkRest rest, String jobId, Duration timeout, String restorePath, OperatorNames names) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String state = rest.jobState(jobId);
      if ("RUNNING".equals(state) && rest.allTasksRunning(jobId)) {
        return;
      }
      List<FlinkRest.JobFailure> failures = rest.exceptions(jobId);
      for (FlinkRest.JobFailure f : failures) {
        Optional<UnrestorableStateException> u = unrestorable(f.stacktrace(), restorePath, names);
        if (u.isPresent()) {
          rest.cancel(jobId);
          throw u.get();
        }
      }
      if (List.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
        String why = failures.isEmpty() ? "" : ": " + FlinkRest.firstLine(failures.get(0).stacktrace());
        throw new IllegalStateException("flink job " + jobId + " is " + state + why);
      }
      if (System.nanoTime() > deadline) {
        String why = failures.isEmpty() ? "" : "; last failure: " + FlinkRest.firstLine(failures.get(0).stacktrace());
        throw new IllegalStateException("flink job " + jobId + " not running after " + timeout.toSeconds() + " s (state "
            + state + ")" + why);
      }
      pause(500);
    }
  }

  /** Whether Flink's message says a restore point does not fit this program, and which operator. */
  static Optional<UnrestorableStateException> unrestorable(String message, String restorePath, OperatorNames names) {
    if (message == null) {
      return Optional.empty();
    }
    String where = restorePath == null ? "the restore point" : restorePath;
    Matcher m = NOT_MAPPED.matcher(message);
    if (m.find()) {
      return Optional.of(new UnrestorableStateException(names.describe(m.group(1)), where,
          "the operator is not in this program"));
    }
    m = MAX_PARALLELISM.matcher(message);
    if (m.find()) {
      return Optional.of(new UnrestorableStateException(names.describe(m.group(1)), where,
          "max parallelism " + m.group(2) + " in the restore point, " + m.group(3) + " in this program"));
    }
    if (restorePath != null && RESTORE_MARKERS.stream().anyMatch(message::contains)) {
      Matcher op = OPERATOR_IN_TASK.matcher(message);
      String operator = op.find() ? names.describe(op.group(1)) : "(see the TaskManager log)";
      return Optional.of(new UnrestorableStateException(operator, where, reason(message)));
    }
    return Optional.empty();
  }

  /** The most specific line of a restore failure: its innermost "Caused by", else its first line. */
  private static String reason(String stacktrace) {
    String best = FlinkRest.firstLine(stacktrace);
    for (String line : stacktrace.split("\\R")) {
      if (line.startsWith("Caused by: ")) {
        best = line.substring("Caused by: ".length());
      }
    }
    return best.length() > 300 ? best.substring(0, 300) + "..." : best;
  }

  /** Stop-with-savepoint; waits for it and returns the savepoint's location. */
  public static String stopWithSavepoint(FlinkRest rest, String jobId, Duration timeout) {
    String trigger = rest.stopWithSavepoint(jobId, null);
    return awaitSavepoint(rest, jobId, trigger, timeout);
  }

  /** A savepoint of a job that keeps running; waits for it and returns its location. */
  public static String savepoint(FlinkRest rest, String jobId, Duration timeout) {
    String trigger = rest.triggerSavepoint(jobId, null);
    return awaitSavepoint(rest, jobId, trigger, timeout);
  }

  /** A checkpoint now; waits for it and returns its id. */
  public static long checkpoint(FlinkRest rest, String jobId, Duration timeout) {
    String trigger = rest.triggerCheckpoint(jobId);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Long> done = rest.checkpointStatus(jobId, trigger);
      if (done.isPresent()) {
        return done.get();
      }
      pause(200);
    }
    throw new IllegalStateException("flink: checkpoint of job " + jobId + " not done after " + timeout.toSeconds() + " s");
  }

  private static String awaitSavepoint(FlinkRest rest, String jobId, String trigger, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> done = rest.savepointStatus(jobId, trigger);
      if (done.isPresent()) {
        return done.get();
      }
      pause(300);
    }
    throw new IllegalStateException("flink: savepoint of job " + jobId + " not done after " + timeout.toSeconds() + " s");
  }

  /**
   * Deletes what no restore needs any more, once job {@code current} has completed a checkpoint of
   * its own (restores use NO_CLAIM, so its first checkpoint is complete without the old files): the
   * checkpoint directories of other jobs, and all but the newest {@code keepSavepoints} savepoints.
   * Returns what it deleted.
   */
  public static List<Path> prune(Path savepointDir, Path checkpointDir, String current, int keepSavepoints) {
    List<Path> deleted = new ArrayList<>();
    if (Files.isDirectory(checkpointDir)) {
      try (Stream<Path> s = Files.list(checkpointDir)) {
        for (Path d : s.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().equals(current)).toList()) {
          deleteTree(d);
          deleted.add(d);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot prune " + checkpointDir + ": " + e.getMessage(), e);
      }
    }
    List<RestorePoint> saves = new ArrayList<>(points(savepointDir, 1, RestorePoint.Kind.SAVEPOINT));
    saves.sort(Comparator.comparing(RestorePoint::written).reversed());
    for (RestorePoint p : saves.subList(Math.min(keepSavepoints, saves.size()), saves.size())) {
      deleteTree(p.dir());
      deleted.add(p.dir());
    }
    return deleted;
  }

  private static void deleteTree(Path d) {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + d + ": " + e.getMessage(), e);
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
