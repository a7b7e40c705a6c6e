package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Keyed by node: the XIDs that interrupt a training job, for the fleet's interruption rate. */
public final class XidInputFunction extends TickedKeyedFunction<GpuXid, CkptInput> {
  private static final long serialVersionUID = 1L;
  private final Set<Integer> interrupting;

  public XidInputFunction(CheckpointSloSettings cfg, PipelineConfig pipeline, WallClock clock) {
    super(Topics.GPU_XID, GpuXid.class, cfg.tickMs(), pipeline, clock);
    this.interrupting = new TreeSet<>(cfg.interruptingXids());
  }

  public static String keyOf(GpuXid x) {
    return x.getCluster() + "|" + x.getNode();
  }

  @Override
  protected void onTick(Tick<CkptInput> tick, List<GpuXid> records) {
    for (GpuXid x : records) {
      if (!interrupting.contains(x.getXid())) {
        continue;
      }
      CkptInput i = new CkptInput();
      i.kind = CkptInput.INTERRUPTION;
      i.cluster = x.getCluster();
      i.ts = x.getTs();
      i.seq = x.getAgentSeq();
      i.node = x.getNode();
      i.xid = x.getXid();
      tick.emit(i);
    }
  }
}
