package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.StorageSample;

/**
 * The Lustre client of every simulated node (the jobs' checkpoint tier, {@code lustre}), as the
 * agent's {@code lustre} collector reports it on fleet.storage.v1: cumulative write calls, write
 * time and bytes. Background writes (logs, small files) all the time, and large writes while the
 * node's job is checkpointing; every write takes about {@link #WRITE_MS} ms, times the tier's
 * latency factor of the tick ({@link TickEffects#tierLatencyFactor}, raised by {@code pfs_degraded}).
 * Draws come from random streams of their own, so enabling the samples changes no other record.
 */
final class StorageClients {
  static final String TIER = "lustre";
  static final String DEVICE = "lustre-ffff9a0c1b2d3000";
  static final String SOURCE = "lustre-llite";
  /** Mean time of one write call on a healthy tier, ms. */
  static final double WRITE_MS = 8;
  /** Background write calls per second of a node, and their size. */
  static final double BACKGROUND_OPS_PER_S = 20;
  static final long BACKGROUND_WRITE_BYTES = 64 * 1024;
  /** Write calls per second of a checkpointing node (1 MiB each). */
  static final double CHECKPOINT_OPS_PER_S = 400;

  private final Rng[] rng;
  private final long[] ops;
  private final double[] timeMs;
  private final long[] bytes;

  StorageClients(long seed, java.util.List<String> nodes) {
    int n = nodes.size();
    rng = new Rng[n];
    for (int i = 0; i < n; i++) {
      rng[i] = Rng.of(seed, "storage/" + nodes.get(i));
    }
    ops = new long[n];
    timeMs = new double[n];
    bytes = new long[n];
  }

  /**
   * Advances node {@code i}'s counters over {@code dtS} seconds and returns its sample.
   *
   * @param checkpointing whether the node's job writes a checkpoint in this interval
   */
  StorageSample step(int i, long ts, String cluster, String node, long seq, double dtS, boolean checkpointing,
      double latencyFactor) {
    Rng r = rng[i];
    long bg = Math.round(BACKGROUND_OPS_PER_S * dtS * r.uniform(0.8, 1.2));
    long ck = checkpointing ? Math.round(CHECKPOINT_OPS_PER_S * dtS * r.uniform(0.9, 1.1)) : 0;
    long n = bg + ck;
    ops[i] += n;
    bytes[i] += bg * BACKGROUND_WRITE_BYTES + ck * 1_048_576L;
    timeMs[i] += n * WRITE_MS * r.uniform(0.7, 1.3) * latencyFactor;
    StorageSample s = AgentRecords.storage(ts, cluster, node, seq, SOURCE, TIER, DEVICE);
    s.setReadBytes(0L);
    s.setWriteBytes(bytes[i]);
    s.setReadOps(0L);
    s.setWriteOps(ops[i]);
    s.setReadTimeMs(0L);
    s.setWriteTimeMs((long) timeMs[i]);
    return s;
  }
}
