package io.fleetscope.flink.ecc;

import io.fleetscope.flink.core.Checks;
import java.io.Serializable;

/** Section {@code ecc} of analytics-defaults.yaml (documented there). */
public record EccConfig(
    long tickMs,
    long shortWindowMs,
    long longWindowMs,
    double sbeRatePerH,
    double sbeClearFraction,
    long dbeQuietMs,
    long retiredPagesLimit,
    long xidQuietMs,
    long xidDedupMs)
    implements Serializable {
  public EccConfig {
    Checks.positive("ecc.tick_ms", tickMs);
    Checks.multipleOf("ecc.short_window_ms", shortWindowMs, "ecc.tick_ms", tickMs);
    Checks.multipleOf("ecc.long_window_ms", longWindowMs, "ecc.tick_ms", tickMs);
    if (longWindowMs <= shortWindowMs) {
      throw new IllegalArgumentException("ecc.long_window_ms (" + longWindowMs + ") must be longer than ecc.short_window_ms (" + shortWindowMs + ")");
    }
    Checks.positive("ecc.sbe_rate_per_h", sbeRatePerH);
    Checks.fraction("ecc.sbe_clear_fraction", sbeClearFraction);
    Checks.positive("ecc.dbe_quiet_ms", dbeQuietMs);
    Checks.positive("ecc.retired_pages_limit", retiredPagesLimit);
    Checks.positive("ecc.xid_quiet_ms", xidQuietMs);
    Checks.positive("ecc.xid_dedup_ms", xidDedupMs);
  }
}
