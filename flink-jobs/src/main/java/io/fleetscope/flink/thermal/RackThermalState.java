package io.fleetscope.flink.thermal;

import io.fleetscope.flink.core.AlertTracker;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Keyed state of one rack in the thermal job: its power, its loops' latest readings, its GPUs. */
public final class RackThermalState implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Latest reading of one coolant loop. */
  public record LoopSnapshot(long ts, Double supplyTempC, Double supplyMaxC, Double flowLpm, Double flowMinLpm)
      implements Serializable {}

  public final RackPowerTracker power;
  public final TreeMap<String, LoopSnapshot> loops = new TreeMap<>();
  public final HashMap<String, GpuThermalMonitor> gpus = new HashMap<>();
  public final AlertTracker alerts = new AlertTracker();

  public RackThermalState(long pduMaxAgeMs) {
    this.power = new RackPowerTracker(pduMaxAgeMs);
  }

  /** The cooling context of a GPU sample at {@code ts}: its loop (or the rack's only loop), rack kW. */
  public CoolingContext cooling(String loop, long ts, long maxAgeMs, Double rackCapacityKw) {
    LoopSnapshot snap = null;
    String l = loop;
    if (l != null) {
      snap = loops.get(l);
    } else if (loops.size() == 1) {
      Map.Entry<String, LoopSnapshot> e = loops.firstEntry();
      l = e.getKey();
      snap = e.getValue();
    }
    if (snap != null && Math.abs(ts - snap.ts()) > maxAgeMs) {
      snap = null;
    }
    Double kw = power.kw(ts);
    return new CoolingContext(l,
        snap == null ? null : snap.supplyTempC(), snap == null ? null : snap.supplyMaxC(),
        snap == null ? null : snap.flowLpm(), snap == null ? null : snap.flowMinLpm(),
        kw, rackCapacityKw);
  }
}
