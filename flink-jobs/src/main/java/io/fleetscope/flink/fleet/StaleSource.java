package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * TelemetryStale for one source (a node's or a device's records on one stream): fires when the
 * event-time watermark passes the last record's time plus the stale limit, resolves with the next
 * record from the source.
 */
public final class StaleSource implements Serializable {
  private final long staleAfterMs;
  private long lastTs = Long.MIN_VALUE;
  private boolean stale;

  public StaleSource(long staleAfterMs) {
    if (staleAfterMs <= 0) {
      throw new IllegalArgumentException("stale limit must be > 0 ms, got " + staleAfterMs);
    }
    this.staleAfterMs = staleAfterMs;
  }

  /** A record arrived; returns the resolution when the source was stale. */
  public Optional<AlertChange> onRecord(long ts, Map<String, String> labels) {
    Optional<AlertChange> out = Optional.empty();
    if (stale && ts > lastTs) {
      stale = false;
      out = Optional.of(change(false, ts, labels));
    }
    lastTs = Math.max(lastTs, ts);
    return out;
  }

  /** Event time at which the source becomes stale if nothing arrives. */
  public long deadline() {
    return lastTs + staleAfterMs;
  }

  /** The watermark advanced to {@code watermark}; returns the firing when the source went stale. */
  public Optional<AlertChange> onWatermark(long watermark, Map<String, String> labels) {
    if (!stale && lastTs != Long.MIN_VALUE && watermark >= deadline()) {
      stale = true;
      return Optional.of(change(true, watermark, labels));
    }
    return Optional.empty();
  }

  public boolean stale() {
    return stale;
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
