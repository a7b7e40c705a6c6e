package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;
import io.fleetscope.loadgen.topology.SiteTopology;
import java.util.List;

/**
 * {@code diurnal_load}: a coolant loop follows the time of day (UTC) while the fault is active: its
 * supply temperature rises by up to {@code supply_amplitude_c} (default 1.5) and each of its racks
 * carries up to {@code rack_kw_amplitude} (default 2) kW of other load (storage, CPU, fans), both
 * peaking at {@code peak_hour} (default 15) and lowest twelve hours later, as the facility's heat
 * rejection does on a warm afternoon. Within normal limits: benign, expected to raise nothing.
 */
final class DiurnalLoad implements Fault {
  private final ResolvedFault f;
  private final List<Integer> racks;
  private final double supplyAmplitudeC;
  private final double rackKwAmplitude;
  private final double peakHour;

  DiurnalLoad(ResolvedFault f, SiteTopology site) {
    this.f = f;
    this.racks = f.racks().stream().map(r -> site.rack(r).index()).toList();
    this.supplyAmplitudeC = f.spec().param("supply_amplitude_c", 1.5);
    this.rackKwAmplitude = f.spec().param("rack_kw_amplitude", 2.0);
    this.peakHour = f.spec().param("peak_hour", 15.0);
  }

  /** 0 at the quietest hour, 1 at the peak hour: a raised cosine over the day. */
  static double dayFraction(long ts, double peakHour) {
    double hour = (ts % 86_400_000L) / 3_600_000.0;
    return 0.5 * (1 + Math.cos(2 * Math.PI * (hour - peakHour) / 24));
  }

  @Override
  public boolean heatPhysicsOnly() {
    return true;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      double d = dayFraction(tick.ts(), peakHour);
      effects.offsetSupply(f.loop(), supplyAmplitudeC * d);
      for (int r : racks) {
        effects.loadRack(r, rackKwAmplitude * d, 1.0);
      }
    }
  }
}
