package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The leak sensor of one CDU loop, decided per reading as it arrives (pure; no Flink): the facility
 * analytic's fast path. CoolantLeak (critical) fires on the first reading that reads wet and
 * resolves on the first that reads dry again; same labels and texts as {@link CoolantLoopMonitor},
 * whose CoolantLeak the windowed {@link CoolantAlertFunction} no longer emits. A reading older than
 * the newest seen is ignored; a reading without the sensor changes nothing.
 */
public final class LeakSensorState implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The alerts this class decides (the windowed coolant function drops its own of these names). */
  public static final Set<String> ALERTS = Set.of("CoolantLeak");

  private long lastTs = Long.MIN_VALUE;
  private boolean wet;
  final AlertTracker alerts = new AlertTracker();

  /**
   * @param labels the loop's labels (cluster, device, loop, racks), built only on a transition
   * @return the change, or null when the sensor reads as before
   */
  public AlertChange onReading(CoolantReading r, Supplier<Map<String, String>> labels) {
    if (r.getTs() <= lastTs) {
      return null; // a duplicate or an older reading: the newer one already decided
    }
    lastTs = r.getTs();
    Boolean now = r.getLeakDetected();
    if (now == null || now == wet) {
      return null;
    }
    wet = now;
    return new AlertChange("CoolantLeak", "critical", wet, wet ? 1 : 0, new LinkedHashMap<>(labels.get()),
        "Coolant leak detected on CDU " + r.getDevice() + " loop " + r.getLoop(),
        "leak sensor reads " + (wet ? "wet" : "dry"));
  }
}
