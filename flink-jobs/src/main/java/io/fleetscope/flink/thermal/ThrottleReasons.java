package io.fleetscope.flink.thermal;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the NVML/DCGM clock-event ("throttle") reason bitmask of {@code fleet.gpu.v1}.
 *
 * <p>Bits as NVML defines them: 0x4 SW power cap, 0x8 HW slowdown, 0x20 SW thermal slowdown,
 * 0x40 HW thermal slowdown, 0x80 HW power brake slowdown. Other bits (idle, application clocks,
 * sync boost, display clock) are not slowdowns and are ignored here.
 */
public final class ThrottleReasons {
  public static final long SW_POWER_CAP = 0x4L;
  public static final long HW_SLOWDOWN = 0x8L;
  public static final long SW_THERMAL = 0x20L;
  public static final long HW_THERMAL = 0x40L;
  public static final long HW_POWER_BRAKE = 0x80L;

  private static final long THERMAL_MASK = SW_THERMAL | HW_THERMAL;
  private static final long POWER_MASK = SW_POWER_CAP | HW_POWER_BRAKE;

  private ThrottleReasons() {}

  /** True when a thermal slowdown (SW or HW thermal) is active. */
  public static boolean thermal(Long bits) {
    return bits != null && (bits & THERMAL_MASK) != 0;
  }

  /** True when a power slowdown (SW power cap, HW power brake) is active. */
  public static boolean power(Long bits) {
    return bits != null && (bits & POWER_MASK) != 0;
  }

  /** True when the generic HW slowdown bit (thermal or power brake) is active. */
  public static boolean hwSlowdown(Long bits) {
    return bits != null && (bits & HW_SLOWDOWN) != 0;
  }

  /** True when any slowdown that costs performance is active (thermal, power or HW slowdown). */
  public static boolean slowdown(Long bits) {
    return thermal(bits) || power(bits) || hwSlowdown(bits);
  }

  /** Names of the active slowdown reasons, most severe first, e.g. {@code [hw_thermal, hw_slowdown]}. */
  public static List<String> names(Long bits) {
    List<String> out = new ArrayList<>();
    if (bits == null) {
      return out;
    }
    if ((bits & HW_THERMAL) != 0) out.add("hw_thermal");
    if ((bits & HW_POWER_BRAKE) != 0) out.add("hw_power_brake");
    if ((bits & HW_SLOWDOWN) != 0) out.add("hw_slowdown");
    if ((bits & SW_THERMAL) != 0) out.add("sw_thermal");
    if ((bits & SW_POWER_CAP) != 0) out.add("sw_power_cap");
    return out;
  }
}
