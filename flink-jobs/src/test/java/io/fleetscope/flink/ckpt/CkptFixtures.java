package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;

final class CkptFixtures {
  /** 2026-01-01T00:00:00Z. */
  static final long T0 = 1_767_225_600_000L;
  static final long TB = 1_000_000_000_000L;

  private CkptFixtures() {}

  static long t(double seconds) {
    return T0 + Math.round(seconds * 1000);
  }

  /** A checkpoint of {@code bytes} that started at {@code startS} and finished {@code durationS} later. */
  static CheckpointEvent done(String job, long step, double startS, double durationS, long bytes) {
    return CheckpointEvent.newBuilder().setTs(t(startS + durationS)).setCluster("c1").setNode("n1")
        .setAgentSeq(step * 2 + 1).setJob(job).setStep(step).setBytes(bytes).setStartedTs(t(startS))
        .setFinishedTs(t(startS + durationS)).setTier("lustre").setStatus("completed").build();
  }

  static CheckpointEvent started(String job, long step, double startS, long bytes) {
    return CheckpointEvent.newBuilder().setTs(t(startS)).setCluster("c1").setNode("n1").setAgentSeq(step * 2)
        .setJob(job).setStep(step).setBytes(bytes).setStartedTs(t(startS)).setTier("lustre").setStatus("started")
        .build();
  }

  static CheckpointEvent failed(String job, long step, double startS, double durationS, long bytes) {
    return CheckpointEvent.newBuilder(done(job, step, startS, durationS, bytes)).setStatus("failed").build();
  }
}
