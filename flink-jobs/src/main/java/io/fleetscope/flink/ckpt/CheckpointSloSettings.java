package io.fleetscope.flink.ckpt;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the checkpoint I/O SLO analytic (config section {@code ckpt}; keys are the
 * snake_case component names, documented with their defaults in {@code analytics-defaults-ckpt.yaml}).
 *
 * @param sloSeconds a checkpoint is compliant when it completes within this many seconds ({@code slo_seconds}, 60)
 * @param sloSecondsByTier per storage tier overrides of slo_seconds ({@code slo_seconds_by_tier}, none)
 * @param target fraction of checkpoints that must be compliant ({@code target}, 0.99)
 * @param burnWindows the multi-window burn-rate rules ({@code burn_windows}; 1h+5m at 14.4x
 *     critical, 6h+30m at 6x warning, as in the Google SRE workbook)
 * @param slowFactor CheckpointSlow fires for one checkpoint longer than slo_seconds times this ({@code slow_factor}, 1.0)
 * @param costSamples the measured checkpoint cost C is the median duration of this many latest
 *     completed checkpoints of the job ({@code cost_samples}, 5)
 * @param mtbfPerGpuHours MTBF of one GPU used until the fleet has shown enough interruptions
 *     ({@code mtbf_per_gpu_hours}, 50000: about what Meta's Llama 3 report gives, 419 unexpected
 *     interruptions in 54 days on 16,384 GPUs)
 * @param minObservedInterruptions interruptions the fleet must have shown before its observed
 *     rate replaces the configured MTBF ({@code min_observed_interruptions}, 3)
 * @param interruptionWindowHours interruptions are counted over this sliding window ({@code interruption_window_hours}, 168)
 * @param interruptionDedupS XIDs of one node within this time count as one interruption ({@code interruption_dedup_s}, 600)
 * @param interruptingXids XID codes that interrupt a training job ({@code interrupting_xids})
 * @param tickMs events are evaluated per tick of this length, in event-time order ({@code tick_ms}, 10000)
 * @param overdueGraceS a started checkpoint that has not finished is judged overdue on the time of
 *     fleet.ckpt.v1 itself (see {@link CheckpointDeadline}); when that stream shows nothing past the
 *     check time (a cluster whose only job hangs), the time of the analytic's other inputs decides,
 *     but only this many seconds after the check time, which must cover the normal lag of the
 *     checkpoint stream behind them ({@code overdue_grace_s}, 300)
 * @param slowClearFraction a firing CheckpointSlow resolves only on a checkpoint that completes within
 *     slo_seconds * slow_factor * this ({@code slow_clear_fraction}, 0.9): durations hovering at the
 *     limit are one alert, not one per checkpoint
 * @param burnClearFraction a firing CheckpointSloBurn rule resolves only when its long or its short
 *     burn rate falls below factor * this ({@code burn_clear_fraction}, 0.8)
 */
public record CheckpointSloSettings(
    double sloSeconds,
    Map<String, Double> sloSecondsByTier,
    double target,
    List<BurnWindow> burnWindows,
    double slowFactor,
    int costSamples,
    double mtbfPerGpuHours,
    int minObservedInterruptions,
    double interruptionWindowHours,
    long interruptionDedupS,
    List<Integer> interruptingXids,
    long tickMs,
    Long overdueGraceS,
    Double slowClearFraction,
    Double burnClearFraction)
    implements Serializable {

  /**
   * One multi-window rule: fires when the burn rate over both the long and the short window is at
   * least {@code factor}.
   */
  public record BurnWindow(String name, long longS, long shortS, double factor, String severity)
      implements Serializable {
    public BurnWindow {
      require(longS > 0 && shortS > 0 && shortS < longS, "burn window " + name + ": need 0 < short < long");
      require(factor > 0, "burn window " + name + ": factor must be > 0");
      require(List.of("critical", "warning", "info").contains(severity),
          "burn window " + name + ": severity must be critical, warning or info, got " + severity);
    }
  }

  public CheckpointSloSettings {
    require(sloSeconds > 0, "slo_seconds must be > 0, got " + sloSeconds);
    sloSecondsByTier = new TreeMap<>(sloSecondsByTier);
    sloSecondsByTier.forEach((k, v) -> require(v != null && v > 0, "slo_seconds_by_tier." + k + " must be > 0"));
    require(target > 0 && target < 1, "target must be in (0,1), got " + target);
    require(!burnWindows.isEmpty(), "burn_windows must not be empty");
    burnWindows = List.copyOf(burnWindows);
    require(slowFactor >= 1, "slow_factor must be >= 1, got " + slowFactor);
    require(costSamples >= 1, "cost_samples must be >= 1");
    require(mtbfPerGpuHours > 0, "mtbf_per_gpu_hours must be > 0");
    require(minObservedInterruptions >= 1, "min_observed_interruptions must be >= 1");
    require(interruptionWindowHours > 0, "interruption_window_hours must be > 0");
    require(interruptionDedupS >= 0, "interruption_dedup_s must be >= 0");
    interruptingXids = List.copyOf(interruptingXids);
    require(tickMs > 0, "tick_ms must be > 0, got " + tickMs);
    // the settings travel inside the analytic's saved state (CheckpointSloTracker): state saved
    // before these keys existed restores them as null, and gets their defaults
    overdueGraceS = overdueGraceS != null ? overdueGraceS : DEFAULT_OVERDUE_GRACE_S;
    slowClearFraction = slowClearFraction != null ? slowClearFraction : DEFAULT_SLOW_CLEAR_FRACTION;
    burnClearFraction = burnClearFraction != null ? burnClearFraction : DEFAULT_BURN_CLEAR_FRACTION;
    require(overdueGraceS >= 0, "overdue_grace_s must be >= 0, got " + overdueGraceS);
    require(slowClearFraction > 0 && slowClearFraction <= 1, "slow_clear_fraction must be in (0,1], got " + slowClearFraction);
    require(burnClearFraction > 0 && burnClearFraction <= 1, "burn_clear_fraction must be in (0,1], got " + burnClearFraction);
  }

  static final long DEFAULT_OVERDUE_GRACE_S = 300;
  static final double DEFAULT_SLOW_CLEAR_FRACTION = 0.9;
  static final double DEFAULT_BURN_CLEAR_FRACTION = 0.8;

  public static CheckpointSloSettings defaults() {
    return new CheckpointSloSettings(60, Map.of(), 0.99,
        List.of(new BurnWindow("1h/5m", 3600, 300, 14.4, "critical"),
            new BurnWindow("6h/30m", 21600, 1800, 6.0, "warning")),
        1.0, 5, 50_000, 3, 168, 600,
        List.of(48, 61, 62, 64, 74, 79, 94, 95, 119, 120), 10_000,
        DEFAULT_OVERDUE_GRACE_S, DEFAULT_SLOW_CLEAR_FRACTION, DEFAULT_BURN_CLEAR_FRACTION);
  }

  public double sloSecondsFor(String tier) {
    Double t = tier == null ? null : sloSecondsByTier.get(tier);
    return t != null ? t : sloSeconds;
  }

  /** The longest window any rule looks at, ms: events older than this are no longer needed. */
  public long longestWindowMs() {
    return burnWindows.stream().mapToLong(BurnWindow::longS).max().orElse(0) * 1000;
  }

  static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("ckpt: " + message);
    }
  }
}
