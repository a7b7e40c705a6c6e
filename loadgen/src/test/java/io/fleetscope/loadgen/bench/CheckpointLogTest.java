package io.fleetscope.loadgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CheckpointCoordinator's lines as the JobManager (log4j) and a MiniCluster JVM (slf4j-simple) write them. */
class CheckpointLogTest {
  static final List<String> LINES = List.of(
      // session cluster, JobManager log (log4j2 pattern of LocalFlink)
      "2026-12-04T18:56:48.802Z INFO  o.a.f.r.c.CheckpointCoordinator - Completed checkpoint 1 for job 1af446a3eb6c06676c94acd244c92b82 (1291708 bytes, checkpointDuration=3054 ms, finalizationTime=148 ms).",
      "2026-12-04T18:56:45.773Z INFO  o.a.f.r.c.CheckpointCoordinator - Triggering checkpoint 2 (type=CheckpointType{name='Checkpoint', sharingFilesStrategy=FORWARD_BACKWARD}) @ 1796410605600 for job 1af446a3eb6c06676c94acd244c92b82.",
      // MiniCluster, slf4j-simple with the launcher's date format
      "2026-12-04T18:57:48.100Z [jobmanager-io-thread-3] INFO org.apache.flink.runtime.checkpoint.CheckpointCoordinator - Completed checkpoint 2 for job 0f1a3a505a0cd9e8d27ad545a367aad8 (167772160 bytes, checkpointDuration=812 ms, finalizationTime=3 ms).",
      "garbage Completed checkpoint 3 for job x (5 bytes, checkpointDuration=1 ms)");

  @Test
  void completedCheckpointsWithTheirTimeSizeAndDuration() {
    assertThat(CheckpointLog.parse(LINES)).containsExactly(
        new CheckpointLog.Completed(Instant.parse("2026-12-04T18:56:48.802Z"), 1, 1291708, 3054),
        new CheckpointLog.Completed(Instant.parse("2026-12-04T18:57:48.100Z"), 2, 167772160, 812));
  }

  @Test
  void statsOverTheRunWindow() {
    var cs = CheckpointLog.parse(LINES).stream().filter(c -> c.at().isAfter(Instant.parse("2026-12-04T18:57:00Z"))).toList();
    CheckpointLog.Stats s = CheckpointLog.stats("minicluster", cs);
    assertThat(s).isEqualTo(new CheckpointLog.Stats("minicluster", 1, 167772160, 167772160, 812, 812));
    assertThat(s.markdown()).isEqualTo("| minicluster | 1 | 160.0 | 160.0 | 812 | 812 |\n");
    assertThat(CheckpointLog.stats("none", List.of())).isNull();
  }
}
