package io.fleetscope.loadgen.bench.chaos;

import java.util.Map;
import java.util.TreeMap;

/**
 * The node agent's self-metrics ({@code /metrics}, Prometheus text format) that the chaos run reads:
 * unlabeled samples by name, labeled ones summed over their labels.
 */
public record AgentMetrics(Map<String, Double> values) {
  public static final String SPOOLED = "fleetscope_agent_records_spooled_total";
  public static final String SENT = "fleetscope_agent_records_sent_total";
  public static final String DROPPED = "fleetscope_agent_records_dropped_total";
  public static final String FAILED = "fleetscope_agent_records_failed_total";
  public static final String DISK_FULL = "fleetscope_agent_spool_disk_full_total";
  public static final String SPOOL_BYTES = "fleetscope_agent_spool_bytes";
  public static final String SEQ_NEXT = "fleetscope_agent_seq_next";

  /** Parses the text exposition format; comments, blank and malformed lines are skipped. */
  public static AgentMetrics parse(String text) {
    Map<String, Double> out = new TreeMap<>();
    for (String line : text.split("\n")) {
      String l = line.trim();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      int brace = l.indexOf('{');
      int space = brace >= 0 ? l.indexOf(' ', l.lastIndexOf('}') + 1) : l.indexOf(' ');
      if (space < 0) {
        continue;
      }
      String name = brace >= 0 && brace < space ? l.substring(0, brace) : l.substring(0, space);
      String[] rest = l.substring(space + 1).trim().split("\\s+");
      try {
        out.merge(name, Double.parseDouble(rest[0]), Double::sum);
      } catch (NumberFormatException e) {
        // not a sample
      }
    }
    return new AgentMetrics(Map.copyOf(out));
  }

  /** The value of {@code name}, 0 when absent. */
  public long get(String name) {
    return Math.round(values.getOrDefault(name, 0.0));
  }

  /** Records spooled by this agent process and neither sent, dropped nor dead-lettered yet. */
  public long unsent() {
    return Math.max(0, get(SPOOLED) - get(SENT) - get(DROPPED) - get(FAILED));
  }
}
