package io.fleetscope.flink.storage;

import java.io.Serializable;

/**
 * Configuration of the storage-tier analytic (config section {@code storage}; keys are the
 * snake_case component names, documented with their defaults in {@code analytics-defaults-storage.yaml}).
 *
 * @param percentageUsedLimit StorageTierDegraded (warning) for a local NVMe whose endurance used
 *     reaches this percent ({@code percentage_used_limit}, 90)
 * @param mediaErrorsWindowS NvmeMediaErrors fires while the media-error counter rose within this
 *     window ({@code media_errors_window_s}, 3600) ...
 * @param mediaErrorsMin ... by at least this many errors ({@code media_errors_min}, 1)
 * @param peerWindowS a PFS client's write latency counts for its tier's peers while its last
 *     reading is at most this old ({@code peer_window_s}, 120)
 * @param minPeers a client is compared with its peers only when the tier has at least this many
 *     clients with writes ({@code min_peers}, 3)
 * @param minWriteOps an interval with fewer write operations has no latency ({@code min_write_ops}, 5)
 * @param peerLatencyFactor StorageTierDegraded for one client whose write latency is at least this
 *     many times its tier's median ({@code peer_latency_factor}, 4.0) ...
 * @param minLatencyMs ... and at least this many ms per write ({@code min_latency_ms}, 20)
 * @param tierLatencyLimitMs StorageTierDegraded for a whole tier whose clients' median write
 *     latency is at least this many ms per write ({@code tier_latency_limit_ms}, 100)
 * @param holdS a PFS condition must hold this long before it fires, and be gone this long before it
 *     resolves ({@code hold_s}, 30)
 */
public record StorageTierSettings(int percentageUsedLimit, long mediaErrorsWindowS, long mediaErrorsMin, long peerWindowS,
    int minPeers, long minWriteOps, double peerLatencyFactor, double minLatencyMs, double tierLatencyLimitMs, long holdS)
    implements Serializable {

  public StorageTierSettings {
    require(percentageUsedLimit > 0, "percentage_used_limit must be > 0, got " + percentageUsedLimit);
    require(mediaErrorsWindowS > 0, "media_errors_window_s must be > 0, got " + mediaErrorsWindowS);
    require(mediaErrorsMin > 0, "media_errors_min must be > 0, got " + mediaErrorsMin);
    require(peerWindowS > 0, "peer_window_s must be > 0, got " + peerWindowS);
    require(minPeers >= 2, "min_peers must be >= 2, got " + minPeers);
    require(minWriteOps > 0, "min_write_ops must be > 0, got " + minWriteOps);
    require(peerLatencyFactor > 1, "peer_latency_factor must be > 1, got " + peerLatencyFactor);
    require(minLatencyMs >= 0, "min_latency_ms must be >= 0, got " + minLatencyMs);
    require(tierLatencyLimitMs > 0, "tier_latency_limit_ms must be > 0, got " + tierLatencyLimitMs);
    require(holdS >= 0, "hold_s must be >= 0, got " + holdS);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("storage: " + message);
    }
  }

  public static StorageTierSettings defaults() {
    return new StorageTierSettings(90, 3600, 1, 120, 3, 5, 4.0, 20, 100, 30);
  }
}
