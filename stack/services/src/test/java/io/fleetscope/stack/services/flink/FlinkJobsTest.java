package io.fleetscope.stack.services.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Choosing what to restore from, recognising a restore that cannot work, and pruning what nothing needs. */
class FlinkJobsTest {
  @TempDir
  Path dir;

  private Path point(String relative, String time) throws Exception {
    Path d = dir.resolve(relative);
    Files.createDirectories(d);
    Path m = d.resolve("_metadata");
    Files.writeString(m, "x");
    Files.setLastModifiedTime(m, FileTime.from(Instant.parse(time)));
    return d;
  }

  @Test
  void theNewestSavepointOrRetainedCheckpointWins() throws Exception {
    point("savepoints/savepoint-aaaaaa-000000000001", "2026-12-04T10:00:00Z");
    Path newest = point("checkpoints/0123456789abcdef0123456789abcdef/chk-7", "2026-12-04T11:00:00Z");
    point("checkpoints/0123456789abcdef0123456789abcdef/chk-6", "2026-12-04T10:59:30Z");
    Files.createDirectories(dir.resolve("checkpoints/0123456789abcdef0123456789abcdef/shared")); // no _metadata
    Optional<FlinkJobs.RestorePoint> p = FlinkJobs.newestRestorePoint(dir.resolve("savepoints"), dir.resolve("checkpoints"));
    assertThat(p).get().extracting(FlinkJobs.RestorePoint::kind, FlinkJobs.RestorePoint::dir)
        .containsExactly(FlinkJobs.RestorePoint.Kind.CHECKPOINT, newest);

    Path saved = point("savepoints/savepoint-bbbbbb-000000000002", "2026-12-04T12:00:00Z");
    assertThat(FlinkJobs.newestRestorePoint(dir.resolve("savepoints"), dir.resolve("checkpoints")))
        .get().extracting(FlinkJobs.RestorePoint::kind, FlinkJobs.RestorePoint::dir)
        .containsExactly(FlinkJobs.RestorePoint.Kind.SAVEPOINT, saved);
    assertThat(FlinkJobs.newestRestorePoint(dir.resolve("none"), dir.resolve("nothing"))).isEmpty();
  }

  @Test
  void flinksRestoreErrorsNameTheOperatorByItsUid() {
    OperatorNames names = OperatorNames.none().record(Map.of("b2a2f0d7b9b1a0b3a2c1d0e9f8e7d6c5", "thermal-rack-risk"));
    String notMapped = "org.apache.flink.runtime.client.JobInitializationException: Could not start the JobMaster.\n"
        + "Caused by: java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint file:/s/savepoint-1. "
        + "Cannot map checkpoint/savepoint state for operator b2a2f0d7b9b1a0b3a2c1d0e9f8e7d6c5 to the new program, because "
        + "the operator is not available in the new program. If you want to allow to skip this, you can set the "
        + "--allowNonRestoredState option on the CLI.";
    assertThat(FlinkJobs.unrestorable(notMapped, "file:/s/savepoint-1", names)).get().satisfies(e -> {
      assertThat(e.operator()).isEqualTo("thermal-rack-risk (b2a2f0d7b9b1a0b3a2c1d0e9f8e7d6c5)");
      assertThat(e.getMessage()).contains("not in this program");
    });

    String maxPar = "Failed to rollback to checkpoint/savepoint file:/s/x. Max parallelism mismatch between checkpoint/savepoint "
        + "state and new program. Cannot map operator 00000000000000000000000000000001 with max parallelism 128 to new "
        + "program with max parallelism 256. This indicates that the program has been changed in a non-compatible way";
    assertThat(FlinkJobs.unrestorable(maxPar, "file:/s/x", names)).get()
        .satisfies(e -> assertThat(e.getMessage()).contains("max parallelism 128 in the restore point, 256 in this program"));

    String serializer = "java.lang.Exception: Exception while creating StreamOperatorStateContext.\n"
        + "Caused by: org.apache.flink.util.FlinkException: Could not restore keyed state backend for "
        + "KeyedProcessOperator_b2a2f0d7b9b1a0b3a2c1d0e9f8e7d6c5_(1/2) from any of the 1 provided restore options.\n"
        + "Caused by: org.apache.flink.util.StateMigrationException: The new state serializer must not be incompatible.";
    assertThat(FlinkJobs.unrestorable(serializer, "file:/s/x", names)).get().satisfies(e -> {
      assertThat(e.operator()).startsWith("thermal-rack-risk");
      assertThat(e.getMessage()).endsWith("org.apache.flink.util.StateMigrationException: The new state serializer must not be incompatible.");
    });

    // the same words without a restore point, or an unrelated failure, are not a restore problem
    assertThat(FlinkJobs.unrestorable(serializer, null, names)).isEmpty();
    assertThat(FlinkJobs.unrestorable("java.net.ConnectException: Connection refused", "file:/s/x", names)).isEmpty();
  }

  @Test
  void pruningKeepsTheCurrentJobsCheckpointsAndTheNewestSavepoints() throws Exception {
    point("checkpoints/old/chk-3", "2026-12-04T10:00:00Z");
    Path current = point("checkpoints/current/chk-1", "2026-12-04T11:00:00Z");
    for (int i = 1; i <= 5; i++) {
      point("savepoints/savepoint-s-" + i, "2026-12-04T0" + i + ":00:00Z");
    }
    assertThat(FlinkJobs.prune(dir.resolve("savepoints"), dir.resolve("checkpoints"), "current", 3)).hasSize(3);
    assertThat(current).exists();
    assertThat(dir.resolve("checkpoints/old")).doesNotExist();
    assertThat(dir.resolve("savepoints")).isDirectoryContaining(p -> p.getFileName().toString().equals("savepoint-s-5"))
        .isDirectoryNotContaining(p -> p.getFileName().toString().equals("savepoint-s-2"));
  }
}
