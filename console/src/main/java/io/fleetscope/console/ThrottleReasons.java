package io.fleetscope.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** NVML's clock event reasons bitmask, by name. */
public final class ThrottleReasons {
  private static final String[] NAMES = {"gpu_idle", "applications_clocks", "sw_power_cap", "hw_slowdown", "sync_boost",
      "sw_thermal", "hw_thermal", "hw_power_brake", "display_clocks"};

  private ThrottleReasons() {}

  /** The names of the bits set, lowest first; an unknown bit as {@code bit_N}. */
  public static ArrayNode names(long mask) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (int b = 0; b < 64; b++) {
      if ((mask & (1L << b)) != 0) {
        out.add(b < NAMES.length ? NAMES[b] : "bit_" + b);
      }
    }
    return out;
  }
}
