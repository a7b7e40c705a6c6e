package io.fleetscope.agent.collectors.ib;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ethtool -S NETDEV} -> its counters, and the PFC pause totals the agent sends: the sum of the
 * per-priority {@code rx_prioN_pause}/{@code tx_prioN_pause} when present (PFC enabled), else the
 * global pause counters {@code rx_pause_ctrl_phy}/{@code tx_pause_ctrl_phy}.
 */
public final class EthtoolParser {
  private EthtoolParser() {}

  public record Pause(Long rx, Long tx) {}

  public static Map<String, Long> parse(String text) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int c = line.lastIndexOf(':');
      if (c <= 0) continue;
      String k = line.substring(0, c).strip();
      Long v = IbValues.counter(line.substring(c + 1));
      if (v != null && !k.isEmpty()) out.put(k, v);
    }
    return out;
  }

  public static Pause pause(Map<String, Long> c) {
    return new Pause(pick(c, "rx"), pick(c, "tx"));
  }

  private static Long pick(Map<String, Long> c, String dir) {
    Long sum = null;
    for (int p = 0; p < 8; p++) {
      Long v = c.get(dir + "_prio" + p + "_pause");
      if (v != null) sum = (sum == null ? 0 : sum) + v;
    }
    return sum != null ? sum : c.get(dir + "_pause_ctrl_phy");
  }
}
