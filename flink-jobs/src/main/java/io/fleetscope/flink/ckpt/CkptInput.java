package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;
import java.util.Comparator;

/**
 * What the first stage of the checkpoint job hands to the cluster-keyed second stage: a finished
 * checkpoint with the job's and the fleet's GPU counts from the topology, or an interrupting XID
 * (a POJO, so Flink serializes it without Kryo).
 */
public class CkptInput {
  public static final int INTERRUPTION = 0;
  public static final int CHECKPOINT = 1;
  /** A checkpoint started (for the deadline of one that never finishes). */
  public static final int START = 2;
  /**
   * A checkpoint event as it reached the analytic ({@link CheckpointArrivals}), before the event-time
   * stage ordered it: for {@link CheckpointStreamClock}.
   */
  public static final int SEEN = 3;
  /**
   * The state of a shared storage tier changed ({@code tier}, {@link #tierDegraded},
   * {@link #tierMedianMs}); sorts before the checkpoint events of the same time.
   */
  public static final int TIER_STATE = -1;

  public int kind;
  public String cluster;
  public long ts;
  public long seq;
  public String node;
  public int xid;

  public String job;
  public long step;
  public long bytes;
  public long startedTs;
  public Long finishedTs;
  public String tier;
  public String status;
  public Integer ranks;
  /** GPUs the job holds (fleet.jobs.v1), 0 when unknown. */
  public int jobGpus;
  /** GPUs of the cluster's nodes in the inventory, 0 when unknown. */
  public int fleetGpus;
  /** {@link #TIER_STATE}: the tier-wide StorageTierDegraded fires. */
  public boolean tierDegraded;
  /** {@link #TIER_STATE}: median write latency of the tier's clients, ms per write (NaN: unknown). */
  public double tierMedianMs;

  public CkptInput() {}

  /** A checkpoint event of {@code kind} (no GPU counts): the inverse of {@link #event()}, status in lower case. */
  public static CkptInput of(int kind, CheckpointEvent e) {
    CkptInput i = new CkptInput();
    i.kind = kind;
    i.cluster = e.getCluster();
    i.ts = e.getTs();
    i.seq = e.getAgentSeq();
    i.node = e.getNode();
    i.job = e.getJob();
    i.step = e.getStep();
    i.bytes = e.getBytes();
    i.startedTs = e.getStartedTs();
    i.finishedTs = e.getFinishedTs();
    i.tier = e.getTier();
    i.status = e.getStatus() == null ? "" : e.getStatus().toLowerCase(java.util.Locale.ROOT);
    i.ranks = e.getRanks();
    return i;
  }

  public CheckpointEvent event() {
    CheckpointEvent e = new CheckpointEvent();
    e.setTs(ts);
    e.setCluster(cluster);
    e.setNode(node);
    e.setAgentSeq(seq);
    e.setJob(job);
    e.setStep(step);
    e.setBytes(bytes);
    e.setStartedTs(startedTs);
    e.setFinishedTs(finishedTs);
    e.setTier(tier);
    e.setStatus(status);
    e.setRanks(ranks);
    return e;
  }

  public static final Comparator<CkptInput> ORDER = Comparator.comparingLong((CkptInput i) -> i.ts)
      .thenComparingInt(i -> i.kind)
      .thenComparing(i -> i.kind != INTERRUPTION ? i.job : i.node, Comparator.nullsFirst(Comparator.naturalOrder()))
      .thenComparingLong(i -> i.kind != INTERRUPTION ? i.step : i.xid)
      .thenComparingLong(i -> i.seq);
}
