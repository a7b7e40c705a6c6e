package io.fleetscope.flink.thermal;

import io.fleetscope.avro.PduReading;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Power of one rack from the latest readings of its PDUs.
 *
 * <p>Per PDU device, inlet readings (the PDU's total, per phase) win over outlet readings so that a
 * PDU reporting both is not counted twice; readings older than the configured age no longer count.
 */
public final class RackPowerTracker implements Serializable {
  private final long maxAgeMs;
  /** device -> point (inlet:X/phase or outlet:Y) -> latest reading. */
  private final Map<String, Map<String, Point>> devices = new TreeMap<>();

  record Point(long ts, double watts) implements Serializable {}

  public RackPowerTracker(long maxAgeMs) {
    this.maxAgeMs = maxAgeMs;
  }

  /** The measuring point of a reading: {@code inlet:<id>/<phase>} or {@code outlet:<id>/<phase>}. */
  public static String pointOf(PduReading r) {
    String phase = r.getPhase() == null ? "" : r.getPhase();
    return r.getInlet() != null ? "inlet:" + r.getInlet() + "/" + phase
        : "outlet:" + (r.getOutlet() == null ? "" : r.getOutlet()) + "/" + phase;
  }

  /** Records a reading; readings without power or older than the stored point are ignored. */
  public void add(PduReading r) {
    if (r.getPowerW() != null) {
      add(r.getDevice(), pointOf(r), r.getTs(), r.getPowerW());
    }
  }

  /** Records the power of one point of one PDU at {@code ts}. */
  public void add(String device, String point, long ts, double watts) {
    Map<String, Point> points = devices.computeIfAbsent(device, d -> new TreeMap<>());
    Point prev = points.get(point);
    if (prev == null || prev.ts <= ts) {
      points.put(point, new Point(ts, watts));
    }
  }

  /** The PDU devices currently feeding this rack. */
  public java.util.Set<String> devices() {
    return devices.keySet();
  }

  /** Rack kW at {@code atTs}, or null when no reading is fresh. */
  public Double kw(long atTs) {
    double watts = 0;
    boolean any = false;
    for (Map<String, Point> points : devices.values()) {
      double inlets = 0, outlets = 0;
      boolean hasInlet = false, hasOutlet = false;
      for (Map.Entry<String, Point> e : points.entrySet()) {
        Point p = e.getValue();
        if (atTs - p.ts > maxAgeMs || p.ts > atTs + maxAgeMs) {
          continue;
        }
        if (e.getKey().startsWith("inlet:")) {
          inlets += p.watts;
          hasInlet = true;
        } else {
          outlets += p.watts;
          hasOutlet = true;
        }
      }
      if (hasInlet) {
        watts += inlets;
        any = true;
      } else if (hasOutlet) {
        watts += outlets;
        any = true;
      }
    }
    return any ? watts / 1000.0 : null;
  }
}
