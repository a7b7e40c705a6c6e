package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.agent.collectors.gpu.MigLayout;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.MigDeviceRef;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Slurm jobs to GPU allocations: each GRES index and device id of a job becomes the GPU it is on,
 * and a MIG device also becomes a {@link MigDeviceRef} (GPU, GPU instance, compute instance, UUID).
 *
 * <ul>
 *   <li>With the node's layout and a GPU of it in MIG mode, GRES index i is {@link SlurmGresOrder#slots} i; a MIG-typed entry
 *       whose index is a whole GPU, or whose profile is not the device's, is left unresolved (the
 *       order is not what this node's Slurm uses, e.g. a hand-written gres.conf) rather than named.
 *   <li>Without it, or with no GPU in MIG mode, an index is the GPU index, as on a node without
 *       MIG, except in a MIG-typed entry: that one is unresolved, since its index is not a GPU.
 *   <li>A {@code MIG-...} UUID, a {@code GPU-...} UUID and {@code MIG-GPU-UUID/GI/CI} are looked up
 *       in the layout; unresolved without it.
 * </ul>
 * What is unresolved is returned with its reason for the caller to log; the job is still sent with
 * what did resolve. Pure.
 */
public final class SlurmAllocations {
  private SlurmAllocations() {}

  public record Result(List<GpuAllocation> allocations, List<String> unresolved) {}

  /** {@code layout} null or empty when the node's GPUs are unknown. */
  public static Result resolve(List<SlurmJobsParser.SlurmJob> jobs, MigLayout layout) {
    boolean known = layout != null && !layout.gpus().isEmpty();
    // without a GPU in MIG mode an index is the GPU index, as Slurm numbers whole GPUs in NVML order;
    // the layout is not used for it, so a GPU missing from nvidia-smi does not shift the others
    boolean mig = known && layout.gpus().stream().anyMatch(MigLayout.Gpu::migMode);
    List<SlurmGresOrder.Slot> slots = mig ? SlurmGresOrder.slots(layout) : List.of();
    List<GpuAllocation> out = new ArrayList<>();
    List<String> unresolved = new ArrayList<>();
    for (SlurmJobsParser.SlurmJob j : jobs) {
      TreeSet<Integer> gpus = new TreeSet<>();
      List<MigDeviceRef> migs = new ArrayList<>();
      for (SlurmGres.Entry e : j.gres()) {
        if (!e.name().equals("gpu")) continue;
        for (int i : e.indexes()) {
          String what = "job " + j.job() + " " + e.name() + (e.type() == null ? "" : ":" + e.type()) + " IDX " + i;
          if (!mig) {
            if (e.isMig()) unresolved.add(what + (known ? ": no GPU of this node is in MIG mode" : ": a MIG device index, and no GPU layout of this node"));
            else gpus.add(i);
            continue;
          }
          if (i >= slots.size()) {
            unresolved.add(what + ": the node has " + slots.size() + " GPU GRES");
            continue;
          }
          SlurmGresOrder.Slot s = slots.get(i);
          if (s.mig() == null) {
            if (e.isMig()) unresolved.add(what + ": names whole GPU " + s.gpu() + " in this node's order, not a MIG device");
            else gpus.add(s.gpu());
            continue;
          }
          String profile = e.profile();
          if (profile != null && s.mig().profile() != null && !s.mig().profile().contains(profile)) {
            unresolved.add(what + ": names a " + s.mig().profile() + " device (GPU " + s.gpu() + " GI " + s.mig().gpuInstanceId()
                + ") in this node's order");
            continue;
          }
          gpus.add(s.gpu());
          migs.add(ref(s.mig()));
        }
      }
      for (String id : j.deviceIds()) {
        MigLayout.Device d = known && id.startsWith("MIG-") ? layout.byUuid(id) : null;
        if (d != null) {
          gpus.add(d.gpu());
          migs.add(ref(d));
          continue;
        }
        MigDeviceRef legacy = known ? legacyMig(id, layout) : null;
        if (legacy != null) {
          gpus.add(legacy.getGpu());
          migs.add(legacy);
          continue;
        }
        MigLayout.Gpu g = known && id.startsWith("GPU-") ? layout.gpuByUuid(id) : null;
        if (g != null) {
          gpus.add(g.index());
          continue;
        }
        unresolved.add("job " + j.job() + " device " + id + (known ? ": not a GPU or MIG device of this node" : ": no GPU layout of this node"));
      }
      out.add(GpuAllocation.newBuilder().setJob(j.job()).setGpus(new ArrayList<>(gpus)).setUser(j.user()).setPartition(j.partition())
          .setMigDevices(migs).build());
    }
    return new Result(out, unresolved);
  }

  /** {@code MIG-GPU-<uuid>/GI/CI}, the MIG id of drivers before R470 (Slurm's unique_id then). */
  private static MigDeviceRef legacyMig(String id, MigLayout layout) {
    if (!id.startsWith("MIG-GPU-")) return null;
    String[] p = id.substring(4).split("/");
    if (p.length != 3) return null;
    MigLayout.Gpu g = layout.gpuByUuid(p[0]);
    if (g == null) return null;
    try {
      int gi = Integer.parseInt(p[1]);
      int ci = Integer.parseInt(p[2]);
      for (MigLayout.Device d : g.migDevices()) {
        if (d.gpuInstanceId() == gi && (d.computeInstanceId() == null || d.computeInstanceId() == ci)) return ref(d);
      }
      return null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static MigDeviceRef ref(MigLayout.Device d) {
    return MigDeviceRef.newBuilder().setGpu(d.gpu()).setGpuInstanceId(d.gpuInstanceId())
        .setComputeInstanceId(d.computeInstanceId()).setUuid(d.uuid()).build();
  }
}
