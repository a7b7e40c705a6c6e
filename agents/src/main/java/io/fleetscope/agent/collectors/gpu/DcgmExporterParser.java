package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
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
 */
public final class DcgmExporterParser {
  private DcgmExporterParser() {}

  public static final String SOURCE = "dcgm-exporter";

  /** One GPU as identified by its labels, with the raw DCGM field values seen for it. */
  public record GpuFields(int gpu, String uuid, String model, String pciBusId, Map<String, Double> fields) {}

  public static List<GpuFields> group(String text) {
    Map<String, GpuFields> byGpu = new LinkedHashMap<>();
    for (PromText.Sample s : PromText.parse(text)) {
      String idx = s.labels().get("gpu");
      if (idx == null || !s.name().startsWith("DCGM_FI_")) continue;
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
        .build();
  }

  static Long asLong(Double d) {
    return d == null || d.isNaN() || Math.abs(d) >= 0x1p63 ? null : (long) (double) d;
  }

  static Boolean asBool(Double d) {
    return d == null || d.isNaN() ? null : d != 0;
  }
}
