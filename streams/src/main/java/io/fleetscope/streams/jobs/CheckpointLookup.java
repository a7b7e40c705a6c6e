package io.fleetscope.streams.jobs;

/** When a job's last completed checkpoint finished. */
@FunctionalInterface
public interface CheckpointLookup {
  /** No checkpoint of any job. */
  CheckpointLookup NONE = (cluster, job) -> null;

  /** Epoch ms the last completed checkpoint of {@code job} in {@code cluster} finished, or null when it has none yet. */
  Long lastCompleted(String cluster, String job);

  /** The key of a job in the checkpoint store. */
  static String key(String cluster, String job) {
    return cluster + "|" + job;
  }
}
