package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.schemas.Topics;
import java.io.Serializable;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Keyed by node: the XIDs that interrupt a training job, for the fleet's interruption rate. */
public final class XidInputFunction extends WholeNodeAnalytic<GpuXid, CkptInput, Serializable> {
  private static final long serialVersionUID = 1L;
  private final Set<Integer> interrupting;

  public XidInputFunction(CheckpointSloSettings cfg) {
    super(Topics.GPU_XID, cfg.tickMs(), TypeInformation.of(CkptInput.class), Set.of(GpuXid.class));
    this.interrupting = new TreeSet<>(cfg.interruptingXids());
  }

  @Override
  protected void onTick(UnitTick<String, CkptInput> tick, List<GpuXid> records, UnitState<Serializable> state) {
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
