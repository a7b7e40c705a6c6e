package io.fleetscope.flink.storage;

import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Hysteresis;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pure: the clients of one parallel-file-system tier of one cluster (every node's mount of
 * {@code lustre}, or of {@code nfs}) and their write latency, from the counter deltas of
 * consecutive samples (ms of write time per write operation; an interval with fewer than
 * {@code min_write_ops} writes has none, a counter that went down starts a new baseline).
 *
 * <p>At each evaluation: the tier's median latency over the clients with a reading in the last
 * {@code peer_window_s}; StorageTierDegraded for the whole tier (labels cluster, tier) while that
 * median is at or above {@code tier_latency_limit_ms}, and for one client (labels cluster, tier,
 * node, device) while its latency is at least {@code peer_latency_factor} times the median and
 * {@code min_latency_ms}, with at least {@code min_peers} clients. Each condition fires at its first
 * breach and resolves once it has been gone for {@code hold_s}. {@link #state()} is the tier's state
 * for the checkpoint analytic: degraded while the tier-wide alert fires.
 */
public final class TierPeers implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String ALERT = "StorageTierDegraded";

  /** The last counters and the latest interval latency of one client (node and device). */
  static final class Client implements Serializable {
    private static final long serialVersionUID = 1L;
    long ts;
    long writeOps;
    long writeTimeMs;
    long writeBytes;
    /** Latency of the last interval with enough writes, ms per write; NaN while none. */
    double latencyMs = Double.NaN;
    long latencyTs;
    double writeBytesPerS = Double.NaN;
    final Hysteresis slow = new Hysteresis();
  }

  private final TreeMap<String, Client> clients = new TreeMap<>();
  private final Hysteresis tierSlow = new Hysteresis();
  private String cluster;
  private String tier;
  private double median = Double.NaN;

  /** Takes one sample's counters; samples without write counters (older Lustre, no timing) are ignored. */
  public void onSample(StorageSample s, StorageTierSettings cfg) {
    cluster = s.getCluster();
    tier = s.getTier();
    if (s.getWriteOps() == null || s.getWriteTimeMs() == null) return;
    String id = s.getNode() + "|" + s.getDevice();
    Client c = clients.get(id);
    long ops = s.getWriteOps();
    long timeMs = s.getWriteTimeMs();
    long bytes = s.getWriteBytes() == null ? 0 : s.getWriteBytes();
    if (c == null) {
      c = new Client();
      clients.put(id, c);
    } else if (s.getTs() > c.ts && ops >= c.writeOps && timeMs >= c.writeTimeMs && bytes >= c.writeBytes) {
      long dOps = ops - c.writeOps;
      if (dOps >= cfg.minWriteOps()) {
        c.latencyMs = (timeMs - c.writeTimeMs) / (double) dOps;
        c.latencyTs = s.getTs();
        c.writeBytesPerS = (bytes - c.writeBytes) * 1000.0 / (s.getTs() - c.ts);
      }
    } else if (s.getTs() <= c.ts) {
      return; // a duplicate or an older sample: keep the newer baseline
    }
    c.ts = s.getTs();
    c.writeOps = ops;
    c.writeTimeMs = timeMs;
    c.writeBytes = bytes;
  }

  /** The alert transitions at event time {@code now}, tier-wide first, then clients by node and device. */
  public List<AlertChange> evaluate(long now, StorageTierSettings cfg) {
    List<AlertChange> out = new ArrayList<>();
    if (cluster == null) return out;
    long holdMs = cfg.holdS() * 1000;
    Map<String, Client> fresh = new LinkedHashMap<>();
    for (Map.Entry<String, Client> e : clients.entrySet()) {
      Client c = e.getValue();
      if (!Double.isNaN(c.latencyMs) && c.latencyTs > now - cfg.peerWindowS() * 1000) fresh.put(e.getKey(), c);
    }
    median = median(fresh.values().stream().mapToDouble(c -> c.latencyMs).toArray());
    boolean tierBreached = !Double.isNaN(median) && median >= cfg.tierLatencyLimitMs();
    Hysteresis.Change t = tierSlow.update(tierBreached, !tierBreached, now, holdMs);
    if (t != Hysteresis.Change.NONE) {
      boolean firing = t == Hysteresis.Change.FIRE;
      out.add(new AlertChange(ALERT, "warning", firing, Double.isNaN(median) ? 0 : median, Map.of("cluster", cluster, "tier", tier),
          tier + " is slow for its clients: median write latency " + Math.round(median) + " ms",
          "Median write latency over " + fresh.size() + " " + tier + " clients is " + round(median) + " ms per write (limit "
              + round(cfg.tierLatencyLimitMs()) + " ms): checkpoints to this tier will take longer than their SLO."));
    }
    boolean peers = fresh.size() >= cfg.minPeers();
    for (Map.Entry<String, Client> e : clients.entrySet()) {
      Client c = e.getValue();
      boolean has = fresh.containsKey(e.getKey());
      double limit = Math.max(cfg.minLatencyMs(), cfg.peerLatencyFactor() * median);
      boolean breached = peers && has && c.latencyMs >= limit;
      boolean clear = !breached;
      Hysteresis.Change ch = c.slow.update(breached, clear, now, holdMs);
      if (ch == Hysteresis.Change.NONE) continue;
      String[] nd = e.getKey().split("\\|", 2);
      Map<String, String> labels = Map.of("cluster", cluster, "tier", tier, "node", nd[0], "device", nd[1]);
      out.add(new AlertChange(ALERT, "warning", ch == Hysteresis.Change.FIRE, Double.isNaN(c.latencyMs) ? 0 : c.latencyMs, labels,
          nd[0] + " " + tier + " client slow: " + round(c.latencyMs) + " ms per write vs tier median " + round(median) + " ms",
          "Write latency of the " + tier + " mount " + nd[1] + " on " + nd[0] + " is " + round(c.latencyMs) + " ms per write, "
              + round(c.latencyMs / median) + "x the median of its " + fresh.size() + " peers (limit " + cfg.peerLatencyFactor()
              + "x and " + round(cfg.minLatencyMs()) + " ms); write throughput " + round(c.writeBytesPerS / 1e6) + " MB/s."));
    }
    clients.values().removeIf(c -> c.ts <= now - 10 * cfg.peerWindowS() * 1000 && !c.slow.firing());
    return out;
  }

  /** Whether the whole tier is degraded (its tier-wide StorageTierDegraded fires). */
  public boolean degraded() {
    return tierSlow.firing();
  }

  /** The tier's median write latency at the last evaluation, ms per write; NaN when unknown. */
  public double median() {
    return median;
  }

  public int clientCount() {
    return clients.size();
  }

  static double median(double[] v) {
    if (v.length == 0) return Double.NaN;
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String round(double v) {
    return Double.isNaN(v) ? "n/a" : Double.toString(Math.round(v * 10) / 10.0);
  }
}
