package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dcgm-exporter's /metrics text -> one {@link GpuSample} per GPU (grouped by the {@code gpu} and
 * {@code UUID} labels). Series without a {@code gpu} label cannot be attributed and are skipped.
 * NVLink: dcgm-exporter exposes only a direction-less total or per-second profiling rates, so
 * {@code nvlink_tx_bytes}/{@code nvlink_rx_bytes} stay null from this source; the NVLink fields go to
 * {@code fleet.nvlink.v1} instead ({@code DcgmNvlinkParser}).
 *
 * <p>MIG: dcgm-exporter also publishes series of a GPU's MIG instances, with the physical GPU's
 * {@code gpu} and {@code UUID} labels plus {@code GPU_I_ID} and {@code GPU_I_PROFILE}. They never
 * go into the physical GPU's sample (an instance's FB_USED or GR_ENGINE_ACTIVE would overwrite the
 * GPU's); {@link #groupMig} groups them per instance and {@link #toMigSample} makes a
 * {@link GpuMigSample} of each.
 */
public final class DcgmExporterParser {
  private DcgmExporterParser() {}

  public static final String SOURCE = "dcgm-exporter";

  /** One GPU as identified by its labels, with the raw DCGM field values seen for it. */
  public record GpuFields(int gpu, String uuid, String model, String pciBusId, Map<String, Double> fields) {}

  /** One MIG instance of a GPU (its {@code GPU_I_ID} and {@code GPU_I_PROFILE}), with its raw DCGM field values. */
  public record MigFields(int gpu, String uuid, int gpuInstanceId, String profile, Map<String, Double> fields) {}

  public static List<GpuFields> group(String text) {
    return group(PromText.parse(text));
  }

  static List<GpuFields> group(List<PromText.Sample> samples) {
    Map<String, GpuFields> byGpu = new LinkedHashMap<>();
    for (PromText.Sample s : samples) {
      String idx = s.labels().get("gpu");
      if (idx == null || !s.name().startsWith("DCGM_FI_") || s.labels().containsKey(GPU_I_ID)) continue;
      int gpu;
      try {
        gpu = Integer.parseInt(idx);
      } catch (NumberFormatException e) {
        continue;
      }
      String uuid = s.labels().get("UUID");
      GpuFields g = byGpu.computeIfAbsent(gpu + "/" + uuid, k -> new GpuFields(gpu, uuid,
          s.labels().get("modelName"), s.labels().getOrDefault("pci_bus_id", null), new LinkedHashMap<>()));
      g.fields().put(s.name(), Values.finite(s.value())); // NaN, +Inf, -Inf or overflow: no value
    }
    return new ArrayList<>(byGpu.values());
  }

  static final String GPU_I_ID = "GPU_I_ID";

  /** The series that carry a {@code GPU_I_ID} label, grouped per GPU and instance (order of first appearance). */
  public static List<MigFields> groupMig(String text) {
    Map<String, MigFields> byInstance = new LinkedHashMap<>();
    for (PromText.Sample s : PromText.parse(text)) {
      String idx = s.labels().get("gpu");
      String gi = s.labels().get(GPU_I_ID);
      if (idx == null || gi == null || !s.name().startsWith("DCGM_FI_")) continue;
      int gpu;
      int instance;
      try {
        gpu = Integer.parseInt(idx);
        instance = Integer.parseInt(gi);
      } catch (NumberFormatException e) {
        continue;
      }
      String uuid = s.labels().get("UUID");
      MigFields m = byInstance.computeIfAbsent(gpu + "/" + uuid + "/" + instance, k -> new MigFields(gpu, uuid, instance,
          s.labels().get("GPU_I_PROFILE"), new LinkedHashMap<>()));
      m.fields().put(s.name(), Values.finite(s.value()));
    }
    return new ArrayList<>(byInstance.values());
  }

  /**
   * One MIG instance: memory from FB_USED and FB_USED + FB_FREE, utilization from the profiling
   * field GR_ENGINE_ACTIVE (a ratio; DCGM_FI_DEV_GPU_UTIL is not supported per instance). The
   * compute instance and the MIG UUID are not in dcgm-exporter's labels: null.
   */
  public static GpuMigSample toMigSample(MigFields m, CollectContext ctx) {
    Map<String, Double> f = m.fields();
    Double used = f.get("DCGM_FI_DEV_FB_USED");
    Double free = f.get("DCGM_FI_DEV_FB_FREE");
    Double active = f.get("DCGM_FI_PROF_GR_ENGINE_ACTIVE");
    return GpuMigSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(m.gpu()).setGpuUuid(m.uuid()).setGpuInstanceId(m.gpuInstanceId()).setProfile(m.profile())
        .setMemUsedMib(used)
        .setMemTotalMib(used == null || free == null ? null : used + free)
        .setUtilPct(active == null ? null : Math.round(active * 100_000) / 1000.0)
        .build();
  }

  public static List<GpuSample> parse(String text, CollectContext ctx) {
    List<GpuSample> out = new ArrayList<>();
    for (GpuFields g : group(text)) out.add(toSample(g, ctx));
    return out;
  }

  static GpuSample toSample(GpuFields g, CollectContext ctx) {
    Map<String, Double> f = g.fields();
    Double limit = f.containsKey("DCGM_FI_DEV_ENFORCED_POWER_LIMIT") ? f.get("DCGM_FI_DEV_ENFORCED_POWER_LIMIT") : f.get("DCGM_FI_DEV_POWER_MGMT_LIMIT");
    Double throttle = f.containsKey("DCGM_FI_DEV_CLOCKS_EVENT_REASONS") ? f.get("DCGM_FI_DEV_CLOCKS_EVENT_REASONS") : f.get("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS");
    Double fbTotal = f.get("DCGM_FI_DEV_FB_TOTAL");
    return GpuSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(g.gpu()).setUuid(g.uuid()).setModel(g.model()).setPciBusId(g.pciBusId())
        .setTempC(f.get("DCGM_FI_DEV_GPU_TEMP"))
        .setMemTempC(f.get("DCGM_FI_DEV_MEMORY_TEMP"))
        .setPowerW(f.get("DCGM_FI_DEV_POWER_USAGE"))
        .setPowerLimitW(limit)
        .setSmClockMhz(f.get("DCGM_FI_DEV_SM_CLOCK"))
        .setMemClockMhz(f.get("DCGM_FI_DEV_MEM_CLOCK"))
        .setUtilPct(f.get("DCGM_FI_DEV_GPU_UTIL"))
        .setMemUtilPct(f.get("DCGM_FI_DEV_MEM_COPY_UTIL"))
        .setMemUsedMib(f.get("DCGM_FI_DEV_FB_USED"))
        .setMemTotalMib(fbTotal)
        .setThrottleReasons(asLong(throttle))
        .setEccSbeTotal(asLong(f.get("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL")))
        .setEccDbeTotal(asLong(f.get("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL")))
        .setRetiredPagesSbe(asLong(f.get("DCGM_FI_DEV_RETIRED_SBE")))
        .setRetiredPagesDbe(asLong(f.get("DCGM_FI_DEV_RETIRED_DBE")))
        .setRowRemapPending(asBool(f.get("DCGM_FI_DEV_ROW_REMAP_PENDING")))
        .setRowRemapFailure(asBool(f.get("DCGM_FI_DEV_ROW_REMAP_FAILURE")))
        .setRemappedRowsCorrectable(asLong(f.get("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS")))
        .setRemappedRowsUncorrectable(asLong(f.get("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS")))
        .setPcieReplayTotal(asLong(f.get("DCGM_FI_DEV_PCIE_REPLAY_COUNTER")))
        // field 156, mJ since the driver was loaded (in dcgm-exporter's default counters)
        .setEnergyMj(asLong(f.get("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")))
        .build();
  }

  static Long asLong(Double d) {
    return d == null || d.isNaN() || Math.abs(d) >= 0x1p63 ? null : (long) (double) d;
  }

  static Boolean asBool(Double d) {
    return d == null || d.isNaN() ? null : d != 0;
  }
}
