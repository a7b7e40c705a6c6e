package io.fleetscope.agent.collectors.fabric;

import java.util.Map;
import java.util.TreeMap;

/**
 * Parses the mlx5 DCQCN parameters of debugfs ({@code /sys/kernel/debug/mlx5/<pci>/cc_params/}),
 * given as file name -> content (one decimal number each, e.g. {@code rp_time_reset} -> "300\n").
 * Pure; no I/O.
 */
public final class CcParamsParser {
  private CcParamsParser() {}

  /** @throws IllegalArgumentException for a file that is not a number */
  public static Map<String, Long> parse(Map<String, String> files) {
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, String> e : files.entrySet()) {
      String v = e.getValue().strip();
      try {
        out.put(e.getKey(), Long.parseLong(v));
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("cc_params/" + e.getKey() + ": '" + v + "' is not a number");
      }
    }
    return out;
  }
}
