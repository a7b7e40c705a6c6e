package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.Anomaly;
import java.io.Serializable;
import java.util.Map;

/**
 * Pure: names on a CheckpointSlow / CheckpointSloBurn anomaly what its storage tier was doing at the
 * time, so on-call can tell a slow tier from a slow job. Annotations (never labels, which would
 * change the alert's fingerprint between its firing and its resolution): {@code tier_state}
 * ({@code degraded}, {@code healthy} or {@code unknown} when no client of the tier reports) and
 * {@code cause} ({@code slow tier}, {@code slow job} or {@code unknown}); the description gets one
 * sentence with the tier's median write latency.
 */
public final class TierCause {
  private TierCause() {}

  public static final String TIER_STATE = "tier_state";
  public static final String CAUSE = "cause";

  /** The last known state of one tier. */
  public record Mark(boolean degraded, double medianMs, long ts) implements Serializable {}

  public static void annotate(Anomaly a, Map<String, Mark> tiers) {
    annotate(a, tiers, null);
  }

  /**
   * As {@link #annotate(Anomaly, Map)}; {@code tier} names the tier when the anomaly has no
   * {@code tier} label (CheckpointSloBurn: the tier of the checkpoint that moved the burn rate).
   */
  public static void annotate(Anomaly a, Map<String, Mark> tiers, String fallbackTier) {
    String tier = a.getLabels().getOrDefault("tier", fallbackTier);
    Mark m = tier == null ? null : tiers.get(tier);
    Map<String, String> ann = a.getAnnotations();
    String state = m == null ? "unknown" : m.degraded() ? "degraded" : "healthy";
    ann.put(TIER_STATE, state);
    ann.put(CAUSE, m == null ? "unknown" : m.degraded() ? "slow tier" : "slow job");
    String d = ann.getOrDefault("description", "");
    String latency = m == null || Double.isNaN(m.medianMs()) ? "" : ", median write latency " + Math.round(m.medianMs()) + " ms";
    String sentence = m == null ? " No client of tier " + tier + " reports storage samples: slow tier or slow job is unknown."
        : m.degraded() ? " Tier " + tier + " is degraded (StorageTierDegraded" + latency + "): a slow tier, not the job."
        : " Tier " + tier + " is healthy" + latency + ": the job's own writes are slow (a slow job).";
    ann.put("description", d + sentence);
  }
}
