package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.agent.collectors.gpu.MigLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which device each of a node's GPU GRES indexes (the {@code IDX} of {@code scontrol -d show job},
 * {@code SLURM_JOB_GPUS}) names, as Slurm's gpu/nvml AutoDetect orders them (Slurm
 * src/plugins/gres/gpu/gres_gpu.c, {@code _merge_system_gres_conf}): the records are sorted by
 * device file, then by NVLink matrix position with records without links last. A GPU not in MIG
 * mode has links, so the whole GPUs come first in NVML index (PCI bus) order; a MIG device has no
 * links and the files {@code /dev/nvidiaMINOR,/dev/nvidia-caps/nvidia-capGI,...-capCI}
 * (src/plugins/gpu/nvml/gpu_nvml.c), whose natural order is (GPU minor number, GPU instance id,
 * compute instance id), since the driver numbers the mig-minors capabilities in that order.
 * So the MIG devices follow, in that order. Pure.
 */
public final class SlurmGresOrder {
  private SlurmGresOrder() {}

  /** One GRES index: a whole GPU ({@code mig} null) or a MIG device of GPU {@code gpu}. */
  public record Slot(int gpu, MigLayout.Device mig) {}

  /** The node's GPU GRES indexes in Slurm's order: slot i is what IDX i names. */
  public static List<Slot> slots(MigLayout layout) {
    List<Slot> out = new ArrayList<>();
    List<MigLayout.Gpu> whole = new ArrayList<>();
    List<MigLayout.Gpu> mig = new ArrayList<>();
    for (MigLayout.Gpu g : layout.gpus()) (g.migMode() ? mig : whole).add(g);
    whole.sort(Comparator.comparingInt(MigLayout.Gpu::index));
    for (MigLayout.Gpu g : whole) out.add(new Slot(g.index(), null));
    mig.sort(Comparator.comparingInt(MigLayout.Gpu::minor).thenComparingInt(MigLayout.Gpu::index));
    for (MigLayout.Gpu g : mig) {
      List<MigLayout.Device> devices = new ArrayList<>(g.migDevices());
      devices.sort(Comparator.comparingInt(MigLayout.Device::gpuInstanceId)
          .thenComparing(d -> d.computeInstanceId() == null ? Integer.MAX_VALUE : d.computeInstanceId()));
      for (MigLayout.Device d : devices) out.add(new Slot(g.index(), d));
    }
    return out;
  }
}
