package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code nvidia-smi --query-gpu=FIELDS --format=csv} -> one {@link GpuSample} per row. Columns are
 * found by their header name (units in brackets dropped), so any field list works; fields that map
 * to no GpuSample field are ignored. Lines starting with {@code #} and blank lines are skipped.
 * Both {@code clocks_event_reasons.active} (new drivers) and {@code clocks_throttle_reasons.active}
 * give the NVML bitmask.
 */
public final class NvidiaSmiCsvParser {
  private NvidiaSmiCsvParser() {}

  public static final String SOURCE = "nvidia-smi-csv";

  /** The default query: every field the agent maps. */
  public static final List<String> DEFAULT_FIELDS = List.of(
      "index", "uuid", "name", "pci.bus_id", "temperature.gpu", "temperature.memory", "power.draw",
      "enforced.power.limit", "clocks.current.sm", "clocks.current.memory", "utilization.gpu",
      "utilization.memory", "memory.used", "memory.total", "clocks_event_reasons.active",
      "ecc.errors.corrected.volatile.total", "ecc.errors.uncorrected.volatile.total",
      "retired_pages.single_bit_ecc.count", "retired_pages.double_bit.count",
      "remapped_rows.correctable", "remapped_rows.uncorrectable", "remapped_rows.pending", "remapped_rows.failure");

  public static List<GpuSample> parse(String text, CollectContext ctx) {
    List<String> header = null;
    List<GpuSample> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : text.split("\n")) {
      lineNo++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) continue;
      List<String> cells = split(l);
      if (header == null) {
        header = new ArrayList<>();
        for (String h : cells) {
          int b = h.indexOf(" [");
          header.add(b < 0 ? h : h.substring(0, b));
        }
        if (!header.contains("index")) {
          throw new IllegalArgumentException("nvidia-smi CSV header has no 'index' column (query it with --query-gpu=index,...)");
        }
        continue;
      }
      if (cells.size() != header.size()) {
        throw new IllegalArgumentException("nvidia-smi CSV line " + lineNo + " has " + cells.size() + " cells, header has " + header.size());
      }
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.size(); i++) row.put(header.get(i), cells.get(i));
      out.add(toSample(row, ctx));
    }
    return out;
  }

  static GpuSample toSample(Map<String, String> r, CollectContext ctx) {
    Integer index = Values.integer(r.get("index"));
    if (index == null) throw new IllegalArgumentException("nvidia-smi CSV row without a GPU index: " + r.get("index"));
    String reasons = r.containsKey("clocks_event_reasons.active") ? r.get("clocks_event_reasons.active") : r.get("clocks_throttle_reasons.active");
    String limit = r.containsKey("enforced.power.limit") ? r.get("enforced.power.limit") : r.get("power.limit");
    String sm = r.containsKey("clocks.current.sm") ? r.get("clocks.current.sm") : r.get("clocks.sm");
    String mem = r.containsKey("clocks.current.memory") ? r.get("clocks.current.memory") : r.get("clocks.mem");
    return GpuSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(index)
        .setUuid(Values.text(r.get("uuid")))
        .setModel(Values.text(r.get("name")))
        .setPciBusId(Values.text(r.get("pci.bus_id")))
        .setTempC(Values.dbl(r.get("temperature.gpu")))
        .setMemTempC(Values.dbl(r.get("temperature.memory")))
        .setPowerW(Values.dbl(r.get("power.draw")))
        .setPowerLimitW(Values.dbl(limit))
        .setSmClockMhz(Values.dbl(sm))
        .setMemClockMhz(Values.dbl(mem))
        .setUtilPct(Values.dbl(r.get("utilization.gpu")))
        .setMemUtilPct(Values.dbl(r.get("utilization.memory")))
        .setMemUsedMib(Values.dbl(r.get("memory.used")))
        .setMemTotalMib(Values.dbl(r.get("memory.total")))
        .setThrottleReasons(Values.lng(reasons))
        .setEccSbeTotal(Values.lng(r.get("ecc.errors.corrected.volatile.total")))
        .setEccDbeTotal(Values.lng(r.get("ecc.errors.uncorrected.volatile.total")))
        .setRetiredPagesSbe(Values.lng(r.get("retired_pages.single_bit_ecc.count")))
        .setRetiredPagesDbe(Values.lng(r.get("retired_pages.double_bit.count")))
        .setRowRemapPending(Values.bool(r.get("remapped_rows.pending")))
        .setRowRemapFailure(Values.bool(r.get("remapped_rows.failure")))
        .setRemappedRowsCorrectable(Values.lng(r.get("remapped_rows.correctable")))
        .setRemappedRowsUncorrectable(Values.lng(r.get("remapped_rows.uncorrectable")))
        .build();
  }

  /** nvidia-smi separates cells with ", " and does not quote; brackets may contain commas only in error texts. */
  static List<String> split(String line) {
    List<String> cells = new ArrayList<>();
    int depth = 0;
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '[') depth++;
      if (c == ']') depth = Math.max(0, depth - 1);
      if (c == ',' && depth == 0) {
        cells.add(cur.toString().strip());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    cells.add(cur.toString().strip());
    return cells;
  }
}
