package io.fleetscope.flink.fleet;

import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/**
 * Keyed by node: turns the node's fleet.jobs.v1 snapshots into per-job changes (the job's GPUs on
 * this node, with their models from the inventory; an empty list when the job left the node).
 * Keyed by node, yet a {@link TickedKeyedFunction} rather than a {@code WholeNodeAnalytic}: its state
 * is in savepoints under its own name, {@code fleet-node-jobs}.
 */
public final class JobAllocationFunction extends TickedKeyedFunction<JobAllocations, FleetInput> {
  private static final long serialVersionUID = 1L;
  private transient ValueState<TreeMap<String, List<Integer>>> previous;

  public JobAllocationFunction(FleetHygieneSettings cfg, PipelineConfig pipeline, WallClock clock) {
    super(Topics.JOBS, JobAllocations.class, cfg.tickMs(), pipeline, clock);
  }

  public static String keyOf(JobAllocations j) {
    return j.getCluster() + "|" + j.getNode();
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  protected void openState() {
    previous = getRuntimeContext().getState(new ValueStateDescriptor<>("fleet-node-jobs",
        (JavaSerializableTypeInfo) new JavaSerializableTypeInfo<>(TreeMap.class)));
  }

  @Override
  protected void onTick(Tick<FleetInput> tick, List<JobAllocations> records) throws Exception {
    if (records.isEmpty()) {
      return;
    }
    JobAllocations last = records.get(records.size() - 1);
    TreeMap<String, List<Integer>> now = new TreeMap<>();
    for (GpuAllocation a : last.getAllocations()) {
      now.computeIfAbsent(a.getJob(), j -> new ArrayList<>()).addAll(a.getGpus());
    }
    TreeMap<String, List<Integer>> before = previous.value();
    if (before == null) {
      before = new TreeMap<>();
    }
    for (Map.Entry<String, List<Integer>> e : now.entrySet()) {
      if (!e.getValue().equals(before.get(e.getKey()))) {
        tick.emit(change(tick, last, e.getKey(), e.getValue()));
      }
    }
    for (String job : before.keySet()) {
      if (!now.containsKey(job)) {
        tick.emit(change(tick, last, job, List.of()));
      }
    }
    previous.update(now);
  }

  private static FleetInput change(Tick<FleetInput> tick, JobAllocations a, String job, List<Integer> gpus) {
    FleetInput f = new FleetInput();
    f.cluster = a.getCluster();
    f.ts = a.getTs();
    f.job = job;
    f.node = a.getNode();
    f.gpus = gpus.stream().mapToInt(Integer::intValue).toArray();
    f.models = new String[f.gpus.length];
    for (int i = 0; i < f.gpus.length; i++) {
      f.models[i] = tick.topology().gpu(a.getNode(), f.gpus[i]).map(GpuInfo::getModel).orElse(null);
    }
    return f;
  }
}
