package io.fleetscope.flink.core;

import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.Records;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Read-only view of the broadcast topology: fleet.inventory.v1 (by record id: node or device) and
 * fleet.jobs.v1 (by node). The newest record (by ts) of an id wins.
 */
public final class Topology {
  public static final MapStateDescriptor<String, InventoryRecord> INVENTORY =
      new MapStateDescriptor<>("fleet-inventory", Types.STRING, AvroTypeInfo.forClass(InventoryRecord.class));
  public static final MapStateDescriptor<String, JobAllocations> JOBS =
      new MapStateDescriptor<>("fleet-jobs", Types.STRING, AvroTypeInfo.forClass(JobAllocations.class));

  private final ReadOnlyBroadcastState<String, InventoryRecord> inventory;
  private final ReadOnlyBroadcastState<String, JobAllocations> jobs;

  public Topology(ReadOnlyBroadcastState<String, InventoryRecord> inventory, ReadOnlyBroadcastState<String, JobAllocations> jobs) {
    this.inventory = inventory;
    this.jobs = jobs;
  }

  /** An empty view (for plain tests of analytics). */
  public static Topology empty() {
    return new Topology(null, null);
  }

  /** Applies one broadcast record to the writable states (from processBroadcastElement). */
  public static void apply(SpecificRecord r, BroadcastState<String, InventoryRecord> inv,
      BroadcastState<String, JobAllocations> jobs) throws Exception {
    if (r instanceof InventoryRecord i) {
      InventoryRecord old = inv.get(i.getId());
      if (newer(old, i, old == null ? 0 : old.getTs(), i.getTs())) {
        inv.put(i.getId(), i);
      }
    } else if (r instanceof JobAllocations j) {
      JobAllocations old = jobs.get(j.getNode());
      if (newer(old, j, old == null ? 0 : old.getTs(), j.getTs())) {
        jobs.put(j.getNode(), j);
      }
    }
  }

  /**
   * Whether {@code cand} replaces {@code old}: the later ts wins; on equal ts the higher agent_seq,
   * then the larger JSON text, so the outcome never depends on arrival order (live = batch).
   */
  private static boolean newer(SpecificRecord old, SpecificRecord cand, long oldTs, long candTs) {
    if (old == null || candTs > oldTs) {
      return true;
    }
    if (candTs < oldTs) {
      return false;
    }
    int c = Long.compare(Records.agentSeq(cand), Records.agentSeq(old));
    if (c == 0) {
      c = cand.toString().compareTo(old.toString());
    }
    return c >= 0;
  }

  public Optional<InventoryRecord> inventory(String id) {
    try {
      return inventory == null ? Optional.empty() : Optional.ofNullable(inventory.get(id));
    } catch (Exception e) {
      throw new IllegalStateException("broadcast state read failed", e);
    }
  }

  public Optional<String> rackOf(String node) {
    return inventory(node).map(InventoryRecord::getRack);
  }

  public Optional<GpuInfo> gpu(String node, int index) {
    return inventory(node).flatMap(i -> i.getGpus().stream().filter(g -> g.getIndex() == index).findFirst());
  }

  public Optional<JobAllocations> jobs(String node) {
    try {
      return jobs == null ? Optional.empty() : Optional.ofNullable(jobs.get(node));
    } catch (Exception e) {
      throw new IllegalStateException("broadcast state read failed", e);
    }
  }

  /** The job owning GPU {@code gpu} of {@code node} right now, if any. */
  public Optional<String> jobOf(String node, int gpu) {
    return jobs(node).flatMap(j -> j.getAllocations().stream().filter(a -> a.getGpus().contains(gpu)).findFirst())
        .map(a -> a.getJob());
  }

  /** Every node's current job allocations (node -> JobAllocations). */
  public Iterable<java.util.Map.Entry<String, JobAllocations>> allJobs() {
    try {
      return jobs == null ? java.util.List.of() : jobs.immutableEntries();
    } catch (Exception e) {
      throw new IllegalStateException("broadcast state read failed", e);
    }
  }

  /** All inventory records (e.g. to find the racks behind a CDU). */
  public Iterable<java.util.Map.Entry<String, InventoryRecord>> allInventory() {
    try {
      return inventory == null ? java.util.List.of() : inventory.immutableEntries();
    } catch (Exception e) {
      throw new IllegalStateException("broadcast state read failed", e);
    }
  }
}
