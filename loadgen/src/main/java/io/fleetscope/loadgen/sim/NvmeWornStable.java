package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.scenario.ResolvedFault;

/**
 * {@code nvme_worn_stable} (benign): the target node's NVMe drive is old but healthy. From the
 * fault's start it reports {@code percentage_used} (default 85, below the analytics' limit of 90) of
 * its endurance used, {@code media_errors} (default 40) media errors from long ago that never rise,
 * a spare capacity of {@code spare_pct} (default 60) and runs {@code temp_offset_c} (default 8)
 * degrees warmer than its peers, all flat. Expected to raise nothing: a non-zero error counter is
 * not an error rate. Start it with the run so the counter is never seen to jump.
 */
final class NvmeWornStable implements Fault {
  private final ResolvedFault f;

  NvmeWornStable(ResolvedFault f) {
    this.f = f;
  }

  @Override
  public void apply(FaultTick tick, TickEffects effects) {
    if (tick.active(f)) {
      effects.node(f.node()).effect(f.type(), () -> new Effect((int) f.spec().param("percentage_used", 85),
          (long) f.spec().param("media_errors", 40), (int) f.spec().param("spare_pct", 60), f.spec().param("temp_offset_c", 8.0)));
    }
  }

  /** The drive's worn but steady health log. */
  record Effect(int percentageUsed, long mediaErrors, int sparePct, double tempOffsetC) implements NodeEffect {
    @Override
    public void onNvme(NvmeDrives.Drive d, Rng rng, double dtS) {
      d.percentageUsed = percentageUsed;
      d.mediaErrors = Math.max(d.mediaErrors, mediaErrors);
      d.errLogEntries = Math.max(d.errLogEntries, mediaErrors);
      d.availableSparePct = Math.min(d.availableSparePct, sparePct);
      d.tempC += tempOffsetC;
    }
  }
}
