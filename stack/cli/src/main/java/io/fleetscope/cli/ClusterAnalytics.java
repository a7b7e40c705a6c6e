package io.fleetscope.cli;

import io.fleetscope.flink.RunMain;
import io.fleetscope.stack.services.flink.FlinkJobs;
import io.fleetscope.stack.services.flink.FlinkRest;
import io.fleetscope.stack.services.flink.OperatorNames;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The analytics as a job on a Flink session cluster: submits the job jar over REST, resuming from the
 * newest savepoint or retained checkpoint unless told to start fresh, waits until every task runs,
 * prunes what the new job no longer needs once it has a checkpoint of its own, and stops the job
 * with a savepoint. Every step prints one {@code key=value} line.
 */
final class ClusterAnalytics {
  /** Savepoints kept besides the newest restore point; older ones are deleted after a resume. */
  static final int KEEP_SAVEPOINTS = 3;
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  /**
   * What to run and where its state lives.
   *
   * @param jar the job jar ({@code flink-jobs/target/fleetscope-analytics.jar})
   * @param jobArgs arguments of {@link RunMain}
   * @param parallelism parallelism to submit with
   * @param flinkDir the cluster's state directory: {@code checkpoints/}, {@code savepoints/}, {@code operators.tsv}
   * @param fresh start with empty state even when a restore point exists
   * @param allowNonRestoredState drop the state of operators this program no longer has
   */
  record Options(Path jar, List<String> jobArgs, int parallelism, Path flinkDir, boolean fresh,
      boolean allowNonRestoredState) {}

  /** A running job and where it came from. */
  record Deployed(String jobId, boolean alreadyRunning, Optional<FlinkJobs.RestorePoint> restoredFrom) {}

  private final FlinkRest rest;
  private final Options options;
  private final PrintStream out;

  ClusterAnalytics(FlinkRest rest, Options options, PrintStream out) {
    this.rest = rest;
    this.options = options;
    this.out = out;
  }

  /** The job jar of a FleetScope checkout. */
  static Path jobJar(Path root) {
    return root.resolve("flink-jobs").resolve("target").resolve("fleetscope-analytics.jar");
  }

  /** Submits the analytics (or finds them running) and waits until all tasks run. */
  Deployed deploy() {
    if (!rest.isHealthy()) {
      throw new IllegalStateException("no Flink cluster answers at " + rest.baseUrl() + "; start it with ./fleetscope up");
    }
    Optional<FlinkRest.JobSummary> running = rest.activeJob(RunMain.JOB_NAME);
    if (running.isPresent()) {
      out.printf("run analytics=already-running engine=cluster job=%s state=%s flink=%s%n", running.get().id(),
          running.get().state(), rest.baseUrl());
      return new Deployed(running.get().id(), true, Optional.empty());
    }
    if (!Files.isRegularFile(options.jar())) {
      throw new IllegalStateException("no job jar at " + options.jar() + "; build it with mvn -pl flink-jobs -am package");
    }
    Optional<FlinkJobs.RestorePoint> restore = options.fresh() ? Optional.empty()
        : FlinkJobs.newestRestorePoint(options.flinkDir().resolve("savepoints"), options.flinkDir().resolve("checkpoints"));
    OperatorNames names = OperatorNames.load(options.flinkDir().resolve("operators.tsv"))
        .record(RunMain.operatorUids(options.jobArgs().toArray(String[]::new)));
    out.printf("run analytics=submitting engine=cluster flink=%s parallelism=%d restore=%s%s%n", rest.baseUrl(),
        options.parallelism(), restore.map(r -> r.kind().name().toLowerCase()).orElse("none"),
        restore.map(r -> " path=" + r.dir()).orElse(options.fresh() ? " reason=fresh" : " reason=nothing-retained"));
    String restorePath = restore.map(FlinkJobs.RestorePoint::uri).orElse(null);
    long t0 = System.nanoTime();
    String jobId = FlinkJobs.submit(rest, new FlinkJobs.Submission(options.jar(), RunMain.class.getName(),
        options.jobArgs(), options.parallelism(), restore, options.allowNonRestoredState()), names);
    FlinkJobs.awaitRunning(rest, jobId, START_TIMEOUT, restorePath, names);
    out.printf("run analytics=running engine=cluster job=%s restored=%s ms=%d ui=%s/#/job/running/%s/overview%n", jobId,
        restore.map(r -> r.kind().name().toLowerCase()).orElse("none"), (System.nanoTime() - t0) / 1_000_000,
        rest.baseUrl(), jobId);
    return new Deployed(jobId, false, restore);
  }

  /**
   * Once the job has completed a checkpoint of its own, deletes other jobs' checkpoints and all but
   * the newest savepoints (in a daemon thread; prints what it deleted).
   */
  void pruneAfterFirstCheckpoint(String jobId) {
    Thread t = new Thread(() -> {
      try {
        while (rest.checkpoints(jobId).completed() == 0) {
          if (!"RUNNING".equals(rest.jobState(jobId))) {
            return;
          }
          Thread.sleep(2000);
        }
        List<Path> deleted = FlinkJobs.prune(options.flinkDir().resolve("savepoints"),
            options.flinkDir().resolve("checkpoints"), jobId, KEEP_SAVEPOINTS);
        if (!deleted.isEmpty()) {
          out.printf("run analytics=pruned job=%s deleted=%d what=\"checkpoints of earlier jobs, savepoints beyond the newest %d\"%n",
              jobId, deleted.size(), KEEP_SAVEPOINTS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        out.printf("run analytics=prune-failed job=%s error=\"%s\"%n", jobId, e.getMessage());
      }
    }, "analytics-prune");
    t.setDaemon(true);
    t.start();
  }

  /** Stop-with-savepoint; prints and returns the savepoint's location (empty when the job is not running). */
  Optional<String> stop(String jobId) {
    String state = rest.jobState(jobId);
    if (!"RUNNING".equals(state)) {
      out.printf("run analytics=not-stopped job=%s state=%s%n", jobId, state);
      return Optional.empty();
    }
    long t0 = System.nanoTime();
    String path = FlinkJobs.stopWithSavepoint(rest, jobId, Duration.ofMinutes(5));
    out.printf("run analytics=stopped job=%s savepoint=%s ms=%d%n", jobId, path, (System.nanoTime() - t0) / 1_000_000);
    return Optional.of(path);
  }

  /** The one line that says why a restore point does not fit this program and the two ways out. */
  static String unrestorableLine(FlinkJobs.UnrestorableStateException e) {
    return "run status=failed reason=unrestorable-state operator=\"" + e.operator() + "\" restore=" + e.restorePath()
        + " detail=\"" + e.getMessage().replace('"', '\'') + "\" fix=\"./fleetscope run --fresh starts with empty state;"
        + " ./fleetscope run --allow-non-restored-state drops the state of operators this program no longer has\"";
  }
}
