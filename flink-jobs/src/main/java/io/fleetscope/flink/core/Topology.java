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
 *
 * <p>Job allocations are also read as of a time ({@link #asOf}): a tick evaluated after a job
 * stopped or started on a node must see the allocation in effect during the tick, not the one that
 * arrived since. A bounded (batch) run processes the whole broadcast input before any record, and a
 * live run may receive a node's new allocation while the ticks before it still wait for their
 * watermark; without the time, both judged earlier ticks with the later allocation (a stopping
 * job's links compared as idle links while their traffic still flowed). Each node keeps its last
 * {@link #HISTORY} allocations that differ, under keys of their own in the same broadcast state.
 */
public final class Topology {
  public static final MapStateDescriptor<String, InventoryRecord> INVENTORY =
      new MapStateDescriptor<>("fleet-inventory", Types.STRING, AvroTypeInfo.forClass(InventoryRecord.class));
  public static final MapStateDescriptor<String, JobAllocations> JOBS =
      new MapStateDescriptor<>("fleet-jobs", Types.STRING, AvroTypeInfo.forClass(JobAllocations.class));

  /** Earlier allocations kept per node (those that differ from the one they were replaced by). */
  static final int HISTORY = 8;
  /** Separates a node from its history slot in the keys of {@link #JOBS} (never in a node name). */
  private static final String HISTORY_KEY = "\u0001prev";

  private final ReadOnlyBroadcastState<String, InventoryRecord> inventory;
  private final ReadOnlyBroadcastState<String, JobAllocations> jobs;
  private final long asOf;

  public Topology(ReadOnlyBroadcastState<String, InventoryRecord> inventory, ReadOnlyBroadcastState<String, JobAllocations> jobs) {
    this(inventory, jobs, Long.MAX_VALUE);
  }

  private Topology(ReadOnlyBroadcastState<String, InventoryRecord> inventory, ReadOnlyBroadcastState<String, JobAllocations> jobs,
      long asOf) {
    this.inventory = inventory;
    this.jobs = jobs;
    this.asOf = asOf;
  }

  /**
   * The same topology with job allocations as they stood at {@code ts} (event time): per node the
   * newest allocation with ts at or before it, else the oldest one known (a snapshot's record
   * stands for the time before it was published).
   */
  public Topology asOf(long ts) {
    return new Topology(inventory, jobs, ts);
  }

  @Override
  public String toString() {
    return "Topology[asOf=" + asOf + "]";
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
      addVersion(jobs, j);
    }
  }

  /**
   * Adds {@code j} to its node's allocations over time, whatever the order records arrive in (a
   * bounded run reads the topic in parallel ranges, so a stop can arrive before the start it ends):
   * the newest under the node's key, the {@link #HISTORY} before it under history keys. A record
   * newer than all that repeats the allocation in effect (an agent publishing it again) adds
   * nothing; of two records with the same ts the later-published one stays. Runs of the same
   * allocation are not merged out of order: a version in between may still be on its way.
   */
  private static void addVersion(BroadcastState<String, JobAllocations> jobs, JobAllocations j) throws Exception {
    String node = j.getNode();
    java.util.List<JobAllocations> versions = new java.util.ArrayList<>(HISTORY + 2);
    JobAllocations current = jobs.get(node);
    if (current != null) {
      versions.add(current);
    }
    for (int i = 0; i < HISTORY; i++) {
      JobAllocations h = jobs.get(node + HISTORY_KEY + i);
      if (h != null) {
        versions.add(h);
      }
    }
    JobAllocations same = versions.stream().filter(v -> v.getTs() == j.getTs()).findFirst().orElse(null);
    if (same != null) {
      if (!newer(same, j, same.getTs(), j.getTs())) {
        return;
      }
      versions.remove(same);
    } else if (current != null && j.getTs() > current.getTs() && current.getAllocations().equals(j.getAllocations())) {
      return; // the allocation in effect, published again
    }
    versions.add(j);
    versions.sort(java.util.Comparator.comparingLong(JobAllocations::getTs));
    while (versions.size() > HISTORY + 1) {
      versions.remove(0);
    }
    jobs.put(node, versions.get(versions.size() - 1));
    for (int i = 0; i < HISTORY; i++) {
      int v = versions.size() - 2 - i;
      if (v >= 0) {
        jobs.put(node + HISTORY_KEY + i, versions.get(v));
      } else {
        jobs.remove(node + HISTORY_KEY + i);
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
      if (jobs == null) {
        return Optional.empty();
      }
      JobAllocations current = jobs.get(node);
      if (current == null || current.getTs() <= asOf) {
        return Optional.ofNullable(current);
      }
      JobAllocations best = null;
      JobAllocations first = current;
      for (int i = 0; i < HISTORY; i++) {
        JobAllocations h = jobs.get(node + HISTORY_KEY + i);
        if (h == null) {
          continue;
        }
        if (h.getTs() <= asOf && (best == null || h.getTs() > best.getTs())) {
          best = h;
        }
        if (h.getTs() < first.getTs()) {
          first = h;
        }
      }
      return Optional.of(best != null ? best : first);
    } catch (Exception e) {
      throw new IllegalStateException("broadcast state read failed", e);
    }
  }

  /** The job owning GPU {@code gpu} of {@code node} right now, if any. */
  public Optional<String> jobOf(String node, int gpu) {
    return jobs(node).flatMap(j -> j.getAllocations().stream().filter(a -> a.getGpus().contains(gpu)).findFirst())
        .map(a -> a.getJob());
  }

  /** Every node's job allocations as of this view's time (node -> JobAllocations). */
  public Iterable<java.util.Map.Entry<String, JobAllocations>> allJobs() {
    try {
      if (jobs == null) {
        return java.util.List.of();
      }
      java.util.List<java.util.Map.Entry<String, JobAllocations>> out = new java.util.ArrayList<>();
      for (java.util.Map.Entry<String, JobAllocations> e : jobs.immutableEntries()) {
        if (!e.getKey().contains(HISTORY_KEY)) {
          jobs(e.getKey()).ifPresent(j -> out.add(java.util.Map.entry(e.getKey(), j)));
        }
      }
      return out;
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
