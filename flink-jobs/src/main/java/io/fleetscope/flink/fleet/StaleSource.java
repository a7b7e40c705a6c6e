package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Hysteresis;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * TelemetryStale for one source (a node's or a device's records on one stream): fires when the
 * event-time watermark passes the last record's time plus the stale limit. It resolves with
 * hysteresis ({@link Hysteresis}): once the source's records have come again no further apart
 * than the stale limit less the resolve margin, for the resolve hold; a new silence past the limit
 * restarts the hold, so a source that sends just less often than the limit is one alert.
 */
public final class StaleSource implements Serializable {
  /** The value Java derived before it was declared: savepoints of earlier versions restore. */
  private static final long serialVersionUID = -1900426735772803812L;
  private final long staleAfterMs;
  private long lastTs = Long.MIN_VALUE;
  /** Firing state of savepoints written before {@link #state} existed (read once, in readObject). */
  private boolean stale;
  /** Gap between records up to which the source counts as back (0 in a state restored from before it: the limit). */
  private long resolveGapMs;
  private long resolveHoldMs;
  private Hysteresis state = new Hysteresis();

  /** A source that resolves at the first record after its silence (no hysteresis). */
  public StaleSource(long staleAfterMs) {
    this(staleAfterMs, 0, 0);
  }

  /**
   * @param staleAfterMs silence after which the source is stale
   * @param resolveMargin the source is back once its records come no further apart than
   *     {@code staleAfterMs * (1 - resolveMargin)} ...
   * @param resolveHoldMs ... for this long
   */
  public StaleSource(long staleAfterMs, double resolveMargin, long resolveHoldMs) {
    if (staleAfterMs <= 0) {
      throw new IllegalArgumentException("stale limit must be > 0 ms, got " + staleAfterMs);
    }
    if (!(resolveMargin >= 0 && resolveMargin < 1) || resolveHoldMs < 0) {
      throw new IllegalArgumentException("resolve margin must be in [0,1) and hold >= 0, got " + resolveMargin
          + " and " + resolveHoldMs);
    }
    this.staleAfterMs = staleAfterMs;
    this.resolveGapMs = resolveMargin == 0 ? 0 : (long) (staleAfterMs * (1 - resolveMargin));
    this.resolveHoldMs = resolveHoldMs;
  }

  /** A record arrived; returns the resolution when the source was stale and is now clearly back. */
  public Optional<AlertChange> onRecord(long ts, Map<String, String> labels) {
    Optional<AlertChange> out = Optional.empty();
    if (state.firing() && ts > lastTs) {
      boolean back = resolveGapMs == 0 && resolveHoldMs == 0 || ts - lastTs <= resolveGap();
      if (state.update(false, back, ts, resolveHoldMs) == Hysteresis.Change.RESOLVE) {
        stale = false;
        out = Optional.of(change(false, ts, labels));
      }
    }
    lastTs = Math.max(lastTs, ts);
    return out;
  }

  private long resolveGap() {
    return resolveGapMs == 0 ? staleAfterMs : resolveGapMs;
  }

  /** Event time at which the source becomes stale if nothing arrives. */
  public long deadline() {
    return lastTs + staleAfterMs;
  }

  /** The watermark advanced to {@code watermark}; returns the firing when the source went stale. */
  public Optional<AlertChange> onWatermark(long watermark, Map<String, String> labels) {
    if (lastTs != Long.MIN_VALUE && watermark >= deadline()
        && state.update(true, false, watermark, resolveHoldMs) == Hysteresis.Change.FIRE) {
      stale = true;
      return Optional.of(change(true, watermark, labels));
    }
    return Optional.empty();
  }

  public boolean stale() {
    return state.firing();
  }

  /** A savepoint of an earlier version has no hysteresis state: it starts from its stale flag. */
  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (state == null) {
      state = Hysteresis.restored(stale);
    }
  }

  public long lastTs() {
    return lastTs;
  }

  private AlertChange change(boolean fire, long now, Map<String, String> labels) {
    String who = labels.containsKey("node") ? "node " + labels.get("node") : "device " + labels.get("device");
    String stream = labels.getOrDefault("stream", "?");
    double silentS = Math.max(0, (now - lastTs) / 1000.0);
    return new AlertChange("TelemetryStale", "warning", fire, Math.round(silentS * 1000) / 1000.0,
        new LinkedHashMap<>(labels),
        fire ? "No " + stream + " telemetry from " + who : stream + " telemetry from " + who + " is back",
        fire ? String.format(Locale.ROOT, "last %s record at %d (epoch ms), silent for %.0f s, limit %.0f s",
                stream, lastTs, silentS, staleAfterMs / 1000.0)
            : String.format(Locale.ROOT, "records arrive again after %.0f s of silence", silentS));
  }
}
