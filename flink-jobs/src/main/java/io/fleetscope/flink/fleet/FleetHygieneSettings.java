package io.fleetscope.flink.fleet;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the fleet hygiene analytics (config section {@code fleet}); defaults in
 * {@link #defaults()}, documented in {@code fleet/fleet-defaults.yaml}.
 *
 * @param staleAfterS TelemetryStale fires when a source has sent nothing for this long in event
 *     time ({@code stale_after_s}, 120)
 * @param staleAfterSByStream per stream overrides ({@code stale_after_s_by_stream}, e.g. pdu: 300)
 * @param slowestFirst GPU model families from slowest to fastest for training, to name the model
 *     that bounds a mixed job ({@code slowest_first}); matched case-insensitively as a substring
 *     of the model string, the longest family name winning
 */
public record FleetHygieneSettings(long staleAfterS, Map<String, Long> staleAfterSByStream, List<String> slowestFirst)
    implements Serializable {

  public FleetHygieneSettings {
    if (staleAfterS <= 0) {
      throw new IllegalArgumentException("fleet: stale_after_s must be > 0, got " + staleAfterS);
    }
    staleAfterSByStream = new TreeMap<>(staleAfterSByStream);
    staleAfterSByStream.forEach((k, v) -> {
      if (v == null || v <= 0) {
        throw new IllegalArgumentException("fleet: stale_after_s_by_stream." + k + " must be > 0, got " + v);
      }
    });
    slowestFirst = List.copyOf(slowestFirst);
  }

  public static FleetHygieneSettings defaults() {
    return new FleetHygieneSettings(120, Map.of(),
        List.of("A100", "Gaudi 3", "H100", "H200", "MI300X", "MI325X", "B200", "GB200"));
  }

  public long staleAfterMs(String stream) {
    Long s = staleAfterSByStream.get(stream);
    return (s != null ? s : staleAfterS) * 1000;
  }
}
