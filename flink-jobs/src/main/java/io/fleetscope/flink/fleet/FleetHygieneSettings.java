package io.fleetscope.flink.fleet;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the fleet hygiene analytics (config section {@code fleet}; keys are the
 * snake_case component names, documented with their defaults in {@code analytics-defaults-fleet.yaml}).
 *
 * @param staleAfterS TelemetryStale fires when a source has sent nothing for this long in event
 *     time ({@code stale_after_s}, 120)
 * @param staleAfterByStreamS per stream overrides ({@code stale_after_by_stream_s}, e.g. pdu: 300)
 * @param slowestFirst GPU model families from slowest to fastest for training, to name the model
 *     that bounds a mixed job ({@code slowest_first}); matched case-insensitively as a substring
 *     of the model string, the longest family name winning
 * @param tickMs records are evaluated per tick of this length; TelemetryStale fires within one
 *     tick of its deadline ({@code tick_ms}, 10000)
 * @param staleResolveMarginPct a stale source is back only once its records come no further apart
 *     than its stale limit less this percent ({@code stale_resolve_margin_pct}, 50) ...
 * @param staleResolveHoldS ... for this long ({@code stale_resolve_hold_s}, 30; 0 with a margin of
 *     0 resolves at the first record)
 */
public record FleetHygieneSettings(long staleAfterS, Map<String, Long> staleAfterByStreamS, List<String> slowestFirst,
    long tickMs, double staleResolveMarginPct, long staleResolveHoldS)
    implements Serializable {

  public FleetHygieneSettings {
    if (staleAfterS <= 0) {
      throw new IllegalArgumentException("fleet: stale_after_s must be > 0, got " + staleAfterS);
    }
    staleAfterByStreamS = staleAfterByStreamS == null ? new TreeMap<>() : new TreeMap<>(staleAfterByStreamS);
    staleAfterByStreamS.forEach((k, v) -> {
      if (v == null || v <= 0) {
        throw new IllegalArgumentException("fleet: stale_after_by_stream_s." + k + " must be > 0, got " + v);
      }
    });
    slowestFirst = List.copyOf(slowestFirst);
    if (tickMs <= 0) {
      throw new IllegalArgumentException("fleet: tick_ms must be > 0, got " + tickMs);
    }
    if (!(staleResolveMarginPct >= 0 && staleResolveMarginPct < 100)) {
      throw new IllegalArgumentException("fleet: stale_resolve_margin_pct must be within [0,100), got " + staleResolveMarginPct);
    }
    if (staleResolveHoldS < 0) {
      throw new IllegalArgumentException("fleet: stale_resolve_hold_s must be >= 0, got " + staleResolveHoldS);
    }
  }

  public static FleetHygieneSettings defaults() {
    return new FleetHygieneSettings(120, Map.of(),
        List.of("A100", "Gaudi 3", "H100", "H200", "MI300X", "MI325X", "B200", "GB200"), 10_000, 50, 30);
  }

  /** A new source's staleness state with these limits. */
  public StaleSource staleSource(String stream) {
    return new StaleSource(staleAfterMs(stream), staleResolveMarginPct / 100.0, staleResolveHoldS * 1000);
  }

  public long staleAfterMs(String stream) {
    Long s = staleAfterByStreamS.get(stream);
    return (s != null ? s : staleAfterS) * 1000;
  }
}
