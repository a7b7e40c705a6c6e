package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuXid;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns DCGM's XID field (DCGM_FI_DEV_XID_ERRORS: the value of the GPU's last XID) into events: one
 * {@link GpuXid} each time a GPU's value changes to a non-zero XID. The first value seen after the
 * agent starts is a baseline (it may be an old event), not an event.
 */
public final class DcgmXidTracker {
  public static final String SOURCE = "dcgm-xid-field";
  private final Map<Integer, Long> last = new HashMap<>();

  public Optional<GpuXid> observe(int gpu, String pciBusId, Double value, CollectContext ctx) {
    if (value == null || value.isNaN()) return Optional.empty();
    long v = (long) (double) value;
    Long prev = last.put(gpu, v);
    if (prev == null || prev == v || v == 0) return Optional.empty();
    return Optional.of(GpuXid.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(gpu)
        .setPciBusId(pciBusId == null ? null : PciBusId.normalize(pciBusId))
        .setXid((int) v)
        .setMessage("DCGM_FI_DEV_XID_ERRORS changed from " + prev + " to " + v)
        .build());
  }
}
