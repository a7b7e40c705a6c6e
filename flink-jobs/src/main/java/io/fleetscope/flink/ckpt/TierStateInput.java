package io.fleetscope.flink.ckpt;

import io.fleetscope.flink.storage.TierState;
import org.apache.flink.api.common.functions.MapFunction;

/** A change of a shared storage tier's state as an input of the cluster stage ({@link CkptInput#TIER_STATE}). */
final class TierStateInput implements MapFunction<TierState, CkptInput> {
  private static final long serialVersionUID = 1L;

  @Override
  public CkptInput map(TierState t) {
    CkptInput i = new CkptInput();
    i.kind = CkptInput.TIER_STATE;
    i.cluster = t.cluster;
    i.ts = t.ts;
    i.tier = t.tier;
    i.tierDegraded = t.degraded;
    i.tierMedianMs = t.medianMs;
    return i;
  }
}
