package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.avro.GpuMigSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Adds what only {@code nvidia-smi -L} names (the MIG profile and the MIG device UUID) to MIG
 * samples: a sample takes the listed device with the same GPU index and MIG device index, and only
 * when the listed GPU is the sample's GPU (same UUID where both are known), so a listing from
 * before a GPU swap or a MIG reconfiguration never labels the wrong device.
 */
public final class MigListing {
  private MigListing() {}

  /** The samples with profile and UUID from the listing where it names their device; the others unchanged. */
  public static List<GpuMigSample> label(List<GpuMigSample> samples, List<NvidiaSmiListParser.ListedGpu> listing) {
    List<GpuMigSample> out = new ArrayList<>(samples.size());
    for (GpuMigSample s : samples) out.add(label(s, listing));
    return out;
  }

  static GpuMigSample label(GpuMigSample s, List<NvidiaSmiListParser.ListedGpu> listing) {
    if (s.getMigDevice() == null) return s;
    for (NvidiaSmiListParser.ListedGpu g : listing) {
      if (g.index() != s.getGpu()) continue;
      if (s.getGpuUuid() != null && g.uuid() != null && !Objects.equals(s.getGpuUuid(), g.uuid())) return s;
      for (NvidiaSmiListParser.MigDevice d : g.migDevices()) {
        if (d.device() == s.getMigDevice()) {
          return GpuMigSample.newBuilder(s).setProfile(d.profile()).setUuid(d.uuid()).build();
        }
      }
    }
    return s;
  }

  /** True when some sample has no profile: the listing is stale or missing (the caller lists again). */
  public static boolean incomplete(List<GpuMigSample> samples) {
    return samples.stream().anyMatch(s -> s.getMigDevice() != null && s.getProfile() == null);
  }
}
