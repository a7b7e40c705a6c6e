package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code nvme_media_errors}: the local NVMe drive of the target node is failing. While active its
 * media and data integrity errors rise by about {@code errors_per_min} (default 2) a minute, each
 * logged in its error log, and its spare capacity falls by {@code spare_drop_per_min} (default 20)
 * percentage points a minute; once below {@code spare_threshold} (default 10) the controller sets
 * critical warning bit 0 (available spare below threshold). A failing drive stays failed: nothing
 * comes back when the fault ends. Needs the scenario setting {@code nvme_interval}.
 */
final class NvmeMediaErrors implements Fault {
  private final ResolvedFault f;

  NvmeMediaErrors(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.node(f.node()).effect(f.type(), () -> new Effect(f.spec().param("errors_per_min", 2.0),
          f.spec().param("spare_drop_per_min", 20.0), (int) f.spec().param("spare_threshold", 10)));
    }
  }

  /** The drive loses blocks. */
  record Effect(double errorsPerMin, double spareDropPerMin, int spareThreshold) implements NodeEffect {
    @Override
    public void onNvme(NvmeDrives.Drive d, Rng rng, double dtS) {
      long added = Math.max(1, Math.round(errorsPerMin * dtS / 60 * rng.uniform(0.5, 1.5)));
      d.mediaErrors += added;
      d.errLogEntries += added;
      d.availableSparePct = (int) Math.max(0, Math.round(d.availableSparePct - spareDropPerMin * dtS / 60));
      if (d.availableSparePct < spareThreshold) {
        d.criticalWarning |= 0x1;
      }
    }
  }
}
