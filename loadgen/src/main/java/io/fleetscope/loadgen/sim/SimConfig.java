package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.Durations;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.topology.SiteConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Everything one simulation run needs. Defaults (see {@link #of}):
 * interval 1 s, facility (PDU/CDU) interval 5 s, checkpoint every 300 s, 0.2% of raw records
 * delayed 1-3 intervals (out of order), 0.05% delayed 60-180 s (late), benign blips on.
 *
 * @param startMs event time of the first sample (epoch ms)
 * @param durationMs simulated time span
 */
public record SimConfig(SiteConfig site, Scenario scenario, long seed, long startMs, long durationMs, long intervalMs,
    long facilityIntervalMs, long checkpointIntervalMs, double reorderFraction, double lateFraction, boolean blips) {

  /** Default start for file output, so that the same seed gives the same file. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");
  /** A scenario's sample interval unless told otherwise, ms. */
  public static final long DEFAULT_INTERVAL_MS = 1000;

  public SimConfig {
    if (intervalMs < 10) {
      throw new IllegalArgumentException("interval must be >= 10 ms");
    }
    if (durationMs < 0) {
      throw new IllegalArgumentException("duration must be >= 0");
    }
    if (facilityIntervalMs < intervalMs) {
      facilityIntervalMs = intervalMs;
    }
    if (reorderFraction < 0 || lateFraction < 0 || reorderFraction + lateFraction > 0.5) {
      throw new IllegalArgumentException("reorder/late fractions must be >= 0 and sum to <= 0.5");
    }
  }

  /** The defaults for a scenario, with its site and settings overrides applied. */
  public static SimConfig of(int nodes, Scenario scenario, long seed) {
    SiteConfig site = SiteConfig.defaults(Math.max(nodes, 1)).withOverrides(scenario.site());
    Map<String, Object> st = scenario.settings();
    long ckpt = st.get("checkpoint_interval") == null ? 300_000
        : Durations.of(st.get("checkpoint_interval")).toMillis();
    double reorder = st.get("reorder_fraction") == null ? 0.002 : ((Number) st.get("reorder_fraction")).doubleValue();
    double late = st.get("late_fraction") == null ? 0.0005 : ((Number) st.get("late_fraction")).doubleValue();
    return new SimConfig(site, scenario, seed, DEFAULT_START.toEpochMilli(), scenario.duration().toMillis(), DEFAULT_INTERVAL_MS, 5000,
        ckpt, reorder, late, true);
  }

  /**
   * NVLink links simulated per GPU (scenario setting {@code nvlink_links}; default 0: no fleet.nvlink.v1
   * records, so scenarios without it keep their seeded output).
   */
  public int nvlinkLinks() {
    Object v = scenario.settings().get("nvlink_links");
    int n = v == null ? 0 : ((Number) v).intValue();
    if (n < 0 || n > 18) {
      throw new IllegalArgumentException("settings.nvlink_links must be within 0..18, got " + n);
    }
    return n;
  }

  public SimConfig withSite(SiteConfig s) {
    return new SimConfig(s, scenario, seed, startMs, durationMs, intervalMs, facilityIntervalMs, checkpointIntervalMs,
        reorderFraction, lateFraction, blips);
  }

  public SimConfig withStart(long ms) {
    return new SimConfig(site, scenario, seed, ms, durationMs, intervalMs, facilityIntervalMs, checkpointIntervalMs,
        reorderFraction, lateFraction, blips);
  }

  public SimConfig withDuration(Duration d) {
    return new SimConfig(site, scenario, seed, startMs, d.toMillis(), intervalMs, facilityIntervalMs,
        checkpointIntervalMs, reorderFraction, lateFraction, blips);
  }

  public SimConfig withInterval(long ms) {
    return new SimConfig(site, scenario, seed, startMs, durationMs, ms, Math.max(facilityIntervalMs, ms),
        checkpointIntervalMs, reorderFraction, lateFraction, blips);
  }

  public SimConfig withDisorder(double reorder, double late) {
    return new SimConfig(site, scenario, seed, startMs, durationMs, intervalMs, facilityIntervalMs,
        checkpointIntervalMs, reorder, late, blips);
  }

  public SimConfig withBlips(boolean on) {
    return new SimConfig(site, scenario, seed, startMs, durationMs, intervalMs, facilityIntervalMs,
        checkpointIntervalMs, reorderFraction, lateFraction, on);
  }

  public long endMs() {
    return startMs + durationMs;
  }
}
