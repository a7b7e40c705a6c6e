package io.fleetscope.flink.peer;

import java.io.Serializable;
import java.util.List;

/**
 * Configuration of the peer-outlier analytic (config section {@code peer}; keys are the snake_case
 * component names, documented with their defaults in {@code analytics-defaults-peer.yaml}).
 *
 * @param windowS members are compared on their mean over tumbling windows of this length ({@code window_s}, 60)
 * @param zThreshold robust z-score from which a member departs ({@code z_threshold}, 3.5, Iglewicz and Hoaglin)
 * @param sustainWindows consecutive departing windows before the alert fires ({@code sustain_windows}, 3)
 * @param minPeers smallest group (members with a value) that is compared at all ({@code min_peers}, 4)
 * @param powerSimilarityPct temperature is compared only among members whose power is within this
 *     percent of the group's median power ({@code power_similarity_pct}, 15)
 * @param gpuMetrics the GPU metrics ({@code gpu_metrics})
 * @param linkMetrics the link metrics ({@code link_metrics})
 * @param resolveMarginPct a firing member resolves only when its z-score and its departure from the
 *     median are both this far (percent) inside their limits ({@code resolve_margin_pct}, 30: robust z
 *     below 2.45 with the default threshold)
 * @param resolveHoldS ... and have stayed so for this long: from the first such window to the one
 *     that resolves ({@code resolve_hold_s}, 60: the second consecutive such window of 60 s;
 *     0 resolves in the first)
 * @param jobOnlyMetrics metrics that depend on the work a member does: compared only within a
 *     group formed by job membership (fleet.jobs.v1), never among the GPUs of a rack or the ports of
 *     a rail without a known job, where different jobs' loads would make outliers of each other
 *     ({@code job_only_metrics}, [power_w, sm_clock_mhz, tx_gbps])
 */
public record PeerOutlierSettings(
    long windowS,
    double zThreshold,
    int sustainWindows,
    int minPeers,
    double powerSimilarityPct,
    List<PeerMetric> gpuMetrics,
    List<PeerMetric> linkMetrics,
    double resolveMarginPct,
    long resolveHoldS,
    List<String> jobOnlyMetrics)
    implements Serializable {

  public PeerOutlierSettings {
    require(windowS > 0, "window_s must be > 0, got " + windowS);
    require(zThreshold > 0, "z_threshold must be > 0, got " + zThreshold);
    require(sustainWindows >= 1, "sustain_windows must be >= 1, got " + sustainWindows);
    require(minPeers >= 3, "min_peers must be >= 3 (a median of two says nothing), got " + minPeers);
    require(powerSimilarityPct > 0, "power_similarity_pct must be > 0");
    gpuMetrics = List.copyOf(gpuMetrics);
    linkMetrics = List.copyOf(linkMetrics);
    require(resolveMarginPct >= 0 && resolveMarginPct < 100, "resolve_margin_pct must be within [0,100), got " + resolveMarginPct);
    require(resolveHoldS >= 0, "resolve_hold_s must be >= 0, got " + resolveHoldS);
    jobOnlyMetrics = jobOnlyMetrics == null ? List.of() : List.copyOf(jobOnlyMetrics);
  }

  /** How long a member must stay clearly back before its alert resolves (event time). */
  public long resolveHoldMs() {
    return resolveHoldS * 1000;
  }

  /** Whether {@code metric} may be compared in a group that was (true) or was not formed by job. */
  public boolean compares(String metric, boolean groupByJob) {
    return groupByJob || !jobOnlyMetrics.contains(metric);
  }

  public static PeerOutlierSettings defaults() {
    return new PeerOutlierSettings(60, 3.5, 3, 4, 15,
        List.of(new PeerMetric("temp_c", PeerMetric.Direction.HIGH, 1.0, 5.0),
            new PeerMetric("sm_clock_mhz", PeerMetric.Direction.LOW, 15.0, 100.0),
            new PeerMetric("power_w", PeerMetric.Direction.LOW, 10.0, 50.0)),
        List.of(new PeerMetric("tx_gbps", PeerMetric.Direction.LOW, 2.0, 20.0),
            new PeerMetric("xmit_wait_per_s", PeerMetric.Direction.HIGH, 1000.0, 10000.0)),
        30, 60, List.of("power_w", "sm_clock_mhz", "tx_gbps"));
  }

  static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("peer: " + message);
    }
  }
}
