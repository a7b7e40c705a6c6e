package io.fleetscope.flink.rail;

import io.fleetscope.flink.core.Checks;
import java.io.Serializable;

/**
 * Section {@code rail} of analytics-defaults.yaml (documented there). The port and rail alerts other
 * than IbLinkDown resolve with hysteresis: {@code resolve_margin_pct} back inside their limit
 * (symbol errors, congestion rates, imbalance), held for {@code resolve_hold_ms} (all four).
 */
public record RailConfig(
    long windowMs,
    double lineRateGbps,
    double degradedRateFraction,
    long linkDownedIncrease,
    long symbolErrorsPerWindow,
    double imbalanceFraction,
    double imbalanceMinUtilisation,
    int imbalanceWindows,
    double pfcPausePerS,
    double ecnMarkedPerS,
    double cnpPerS,
    int congestionWindows,
    double wrapPlausibilityFactor,
    double resolveMarginPct,
    long resolveHoldMs)
    implements Serializable {
  public RailConfig {
    Checks.positive("rail.window_ms", windowMs);
    Checks.positive("rail.line_rate_gbps", lineRateGbps);
    Checks.fraction("rail.degraded_rate_fraction", degradedRateFraction);
    Checks.positive("rail.link_downed_increase", linkDownedIncrease);
    Checks.positive("rail.symbol_errors_per_window", symbolErrorsPerWindow);
    Checks.fraction("rail.imbalance_fraction", imbalanceFraction);
    Checks.fraction("rail.imbalance_min_utilisation", imbalanceMinUtilisation);
    Checks.positive("rail.imbalance_windows", imbalanceWindows);
    Checks.positive("rail.pfc_pause_per_s", pfcPausePerS);
    Checks.positive("rail.ecn_marked_per_s", ecnMarkedPerS);
    Checks.positive("rail.cnp_per_s", cnpPerS);
    Checks.positive("rail.congestion_windows", congestionWindows);
    Checks.positive("rail.wrap_plausibility_factor", wrapPlausibilityFactor);
    if (!(resolveMarginPct >= 0 && resolveMarginPct < 100)) {
      throw new IllegalArgumentException("rail.resolve_margin_pct must be within [0,100), got " + resolveMarginPct);
    }
    Checks.nonNegative("rail.resolve_hold_ms", resolveHoldMs);
  }

  /** The resolve margin as a fraction of a limit. */
  public double resolveMargin() {
    return resolveMarginPct / 100.0;
  }
}
