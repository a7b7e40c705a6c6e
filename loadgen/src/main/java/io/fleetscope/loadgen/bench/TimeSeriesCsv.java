package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The pipeline run as CSV, one row per second: t_s, produced_rps, lag_total, lag_GROUP..., latency_p50_ms,
 * latency_p99_ms, cpu_pct_COMPONENT..., rss_mib_COMPONENT... (empty cell = no value).
 */
public final class TimeSeriesCsv {
  private TimeSeriesCsv() {}

  public static void write(List<PipelineSample> samples, List<String> groups, List<String> components, Path file)
      throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      StringBuilder h = new StringBuilder("t_s,produced_rps,lag_total");
      groups.forEach(gr -> h.append(",lag_").append(gr));
      h.append(",latency_p50_ms,latency_p99_ms");
      components.forEach(c -> h.append(",cpu_pct_").append(c));
      components.forEach(c -> h.append(",rss_mib_").append(c));
      w.write(h.append('\n').toString());
      for (PipelineSample s : samples) {
        StringBuilder b = new StringBuilder();
        b.append(fmt(s.tS())).append(',').append(fmt(s.producedRps())).append(',').append(s.totalLag());
        for (String gr : groups) {
          Long v = s.lagByGroup().get(gr);
          b.append(',').append(v == null || v < 0 ? "" : v.toString());
        }
        b.append(',').append(fmt(s.latencyP50Ms())).append(',').append(fmt(s.latencyP99Ms()));
        for (String c : components) {
          b.append(',').append(fmt(s.cpuPct().getOrDefault(c, Double.NaN)));
        }
        for (String c : components) {
          b.append(',').append(fmt(s.rssMib().getOrDefault(c, Double.NaN)));
        }
        w.write(b.append('\n').toString());
      }
    }
  }

  static String fmt(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
  }
}
