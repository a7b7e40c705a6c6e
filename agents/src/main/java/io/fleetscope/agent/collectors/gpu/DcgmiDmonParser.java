package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dcgmi dmon -e FIELD_IDS -c 1} -> one {@link GpuSample} per {@code GPU N} line.
 *
 * <p>No real capture of this output was available: this parses the format DCGM documents - a
 * header line {@code #Entity  TAG1  TAG2 ...} (field short names), an optional units line
 * ({@code ID  C  W ...}), then rows {@code GPU 0  v1  v2 ...}, {@code N/A} for missing values.
 * Columns are mapped by tag through {@link #DEFAULT_TAGS}, extendable in the config.
 */
public final class DcgmiDmonParser {
  private DcgmiDmonParser() {}

  public static final String SOURCE = "dcgmi-dmon";

  /** DCGM field short names -> GpuSample field names. */
  public static final Map<String, String> DEFAULT_TAGS = Map.ofEntries(
      Map.entry("TMPTR", "temp_c"), Map.entry("MMTMP", "mem_temp_c"), Map.entry("POWER", "power_w"),
      Map.entry("SMCLK", "sm_clock_mhz"), Map.entry("MMCLK", "mem_clock_mhz"), Map.entry("GPUTL", "util_pct"),
      Map.entry("MCUTL", "mem_util_pct"), Map.entry("FBUSD", "mem_used_mib"), Map.entry("FBTTL", "mem_total_mib"),
      Map.entry("TOTEC", "energy_mj"));

  public static List<GpuSample> parse(String text, Map<String, String> tags, CollectContext ctx) {
    List<String> header = null;
    List<GpuSample> out = new ArrayList<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty()) continue;
      if (line.startsWith("#")) {
        String[] h = line.substring(1).strip().split("\\s+");
        header = new ArrayList<>(List.of(h).subList(1, h.length)); // drop "Entity"
        continue;
      }
      String[] f = line.split("\\s+");
      if (!f[0].equals("GPU") || f.length < 2 || header == null) continue; // units line, other entities
      int gpu;
      try {
        gpu = Integer.parseInt(f[1]);
      } catch (NumberFormatException e) {
        continue;
      }
      Map<String, Double> v = new LinkedHashMap<>();
      for (int i = 0; i < header.size() && i + 2 < f.length; i++) {
        String field = tags.get(header.get(i));
        if (field != null) v.put(field, Values.dbl(f[i + 2]));
      }
      GpuSample.Builder b = GpuSample.newBuilder()
          .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE).setGpu(gpu);
      GpuSample s = b.build();
      for (var e : v.entrySet()) {
        var fld = s.getSchema().getField(e.getKey());
        if (fld != null) s.put(fld.pos(), isLong(fld) ? (Object) DcgmExporterParser.asLong(e.getValue()) : e.getValue());
      }
      out.add(s);
    }
    return out;
  }

  /** A counter field (energy_mj): whole numbers as long, not double. */
  private static boolean isLong(org.apache.avro.Schema.Field fld) {
    for (org.apache.avro.Schema t : fld.schema().getTypes()) {
      if (t.getType() == org.apache.avro.Schema.Type.LONG) {
        return true;
      }
    }
    return false;
  }
}
