package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Keyed by job: every checkpoint start, and every finished (completed or failed) checkpoint with
 * the GPUs its job holds now (fleet.jobs.v1) and the GPUs of the cluster (fleet.inventory.v1),
 * for {@link CheckpointSloFunction}.
 */
public final class CheckpointInputFunction extends TickedKeyedFunction<CheckpointEvent, CkptInput> {
  private static final long serialVersionUID = 1L;

  public CheckpointInputFunction(CheckpointSloSettings cfg, PipelineConfig pipeline, WallClock clock) {
    super(Topics.CKPT, CheckpointEvent.class, cfg.tickMs(), pipeline, clock);
  }

  public static String keyOf(CheckpointEvent e) {
    return e.getCluster() + "|" + e.getJob();
  }

  @Override
  protected void onTick(Tick<CkptInput> tick, List<CheckpointEvent> records) {
    int[] counts = null;
    for (CheckpointEvent e : records) {
      String status = e.getStatus() == null ? "" : e.getStatus().toLowerCase(Locale.ROOT);
      boolean start = status.equals("started");
      if (!start && !status.equals("completed") && !status.equals("failed")) {
        continue;
      }
      if (counts == null && !start) {
        counts = gpuCounts(tick.topology(), e.getCluster(), e.getJob());
      }
      CkptInput i = CkptInput.of(start ? CkptInput.START : CkptInput.CHECKPOINT, e);
      i.jobGpus = start ? 0 : counts[0];
      i.fleetGpus = start ? 0 : counts[1];
      tick.emit(i);
    }
  }

  /** [GPUs held by the job, GPUs of the cluster's nodes] from the topology (one inventory scan). */
  static int[] gpuCounts(Topology t, String cluster, String job) {
    int jobGpus = 0;
    int fleetGpus = 0;
    for (Map.Entry<String, InventoryRecord> e : t.allInventory()) {
      InventoryRecord inv = e.getValue();
      if (!"node".equals(inv.getKind()) || !cluster.equals(inv.getCluster())) {
        continue;
      }
      fleetGpus += inv.getGpus().size();
      Optional<JobAllocations> a = t.jobs(inv.getId());
      if (a.isPresent()) {
        for (GpuAllocation g : a.get().getAllocations()) {
          if (job.equals(g.getJob())) {
            jobGpus += g.getGpus().size();
          }
        }
      }
    }
    return new int[] {jobGpus, fleetGpus};
  }
}
