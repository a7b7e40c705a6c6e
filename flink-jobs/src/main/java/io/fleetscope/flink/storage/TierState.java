package io.fleetscope.flink.storage;

/**
 * The state of one parallel-file-system tier of one cluster at an event time, as the checkpoint
 * analytic needs it to tell a slow tier from a slow job (a POJO, so Flink serializes it without Kryo).
 */
public class TierState {
  public String cluster;
  public String tier;
  public long ts;
  /** The tier-wide StorageTierDegraded fires. */
  public boolean degraded;
  /** Median write latency of the tier's clients, ms per write; NaN when unknown. */
  public double medianMs;
  public int clients;

  public TierState() {}

  public static TierState of(String cluster, String tier, long ts, boolean degraded, double medianMs, int clients) {
    TierState s = new TierState();
    s.cluster = cluster;
    s.tier = tier;
    s.ts = ts;
    s.degraded = degraded;
    s.medianMs = medianMs;
    s.clients = clients;
    return s;
  }
}
