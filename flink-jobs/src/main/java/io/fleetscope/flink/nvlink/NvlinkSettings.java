package io.fleetscope.flink.nvlink;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the NVLink analytics (config section {@code nvlink}; keys are the snake_case
 * component names, documented with their defaults in {@code analytics-defaults-nvlink.yaml}).
 *
 * @param linksByModel NVLink links a GPU of a model should have up ({@code links_by_model}), matched
 *     as a case-insensitive substring of the model string, the longest name winning; the
 *     inventory's {@code gpus[].nvlink_links} takes precedence when the agent sets it
 * @param errorWindowMs NvlinkErrorsRising's sliding window of a link's error counters
 *     ({@code error_window_ms}, 300000)
 * @param errorsPerMin NvlinkErrorsRising fires when a link's errors (CRC, replay, recovery, summed)
 *     grew at least this fast over the window ({@code errors_per_min}, 10)
 * @param errorsClearFraction ... and resolves once the rate stayed below {@code errors_per_min}
 *     times this ({@code errors_clear_fraction}, 0.5) ...
 * @param errorsClearHoldMs ... for this long ({@code errors_clear_hold_ms}, 600000)
 */
public record NvlinkSettings(Map<String, Integer> linksByModel, long errorWindowMs, double errorsPerMin,
    double errorsClearFraction, long errorsClearHoldMs) implements Serializable {

  public NvlinkSettings {
    linksByModel = linksByModel == null ? new TreeMap<>() : new TreeMap<>(linksByModel);
    linksByModel.forEach((k, v) -> {
      if (k == null || k.isBlank()) {
        throw new IllegalArgumentException("nvlink: links_by_model has an empty model name");
      }
      if (v == null || v < 0) {
        throw new IllegalArgumentException("nvlink: links_by_model." + k + " must be >= 0, got " + v);
      }
    });
    if (errorWindowMs <= 0) {
      throw new IllegalArgumentException("nvlink: error_window_ms must be > 0, got " + errorWindowMs);
    }
    if (!(errorsPerMin > 0) || Double.isInfinite(errorsPerMin)) {
      throw new IllegalArgumentException("nvlink: errors_per_min must be > 0, got " + errorsPerMin);
    }
    if (!(errorsClearFraction >= 0 && errorsClearFraction < 1)) {
      throw new IllegalArgumentException("nvlink: errors_clear_fraction must be within [0,1), got " + errorsClearFraction);
    }
    if (errorsClearHoldMs < 0) {
      throw new IllegalArgumentException("nvlink: errors_clear_hold_ms must be >= 0, got " + errorsClearHoldMs);
    }
  }

  /** The defaults of analytics-defaults-nvlink.yaml. */
  public static NvlinkSettings defaults() {
    return new NvlinkSettings(Map.of("H100 80GB HBM3", 18, "H100 SXM", 18, "H200", 18, "H800", 8, "A100-SXM4", 12,
        "B200", 18), 300_000, 10.0, 0.5, 600_000);
  }

  /** Links a GPU of {@code model} should have up, from {@link #linksByModel}; null when no name matches. */
  public Integer expectedLinks(String model) {
    if (model == null) {
      return null;
    }
    String m = model.toLowerCase(Locale.ROOT);
    String best = null;
    for (String k : linksByModel.keySet()) {
      if (m.contains(k.toLowerCase(Locale.ROOT)) && (best == null || k.length() > best.length())) {
        best = k;
      }
    }
    return best == null ? null : linksByModel.get(best);
  }
}
