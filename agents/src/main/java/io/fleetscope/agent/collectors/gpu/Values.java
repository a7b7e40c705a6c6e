package io.fleetscope.agent.collectors.gpu;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses nvidia-smi / DCGM value text: {@code "27 C"}, {@code "67.03 W"}, {@code "0x0000000000000001"}, {@code "[N/A]"}. */
public final class Values {
  private Values() {}

  private static final Pattern NUMBER = Pattern.compile("^\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)(?:\\s*[A-Za-z%/]+)?\\s*$");

  /** Null for absent, N/A-like or unparsable text, and for a number too large for a double (no infinities). */
  public static Double dbl(String s) {
    if (s == null) return null;
    String t = s.trim();
    if (t.startsWith("0x") || t.startsWith("0X")) {
      Long l = hex(t);
      return l == null ? null : l.doubleValue();
    }
    Matcher m = NUMBER.matcher(t);
    return m.matches() ? finite(Double.valueOf(m.group(1))) : null;
  }

  /** The value, or null when it is NaN or infinite. */
  public static Double finite(Double d) {
    return d == null || Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }

  public static Long lng(String s) {
    if (s == null) return null;
    String t = s.trim();
    if (t.startsWith("0x") || t.startsWith("0X")) return hex(t);
    Matcher m = NUMBER.matcher(t);
    if (!m.matches()) return null;
    String n = m.group(1);
    try {
      return Long.valueOf(n);
    } catch (NumberFormatException e) {
      double d = Double.parseDouble(n);
      // out of a long's range: null, never a value clamped to Long.MAX_VALUE
      return d == Math.rint(d) && Math.abs(d) < 0x1p63 ? (long) d : null;
    }
  }

  public static Integer integer(String s) {
    Long l = lng(s);
    return l == null ? null : (int) (long) l;
  }

  public static Long hex(String t) {
    try {
      return Long.parseUnsignedLong(t.trim().substring(2), 16);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** "Yes"/"Active"/"1" are true, "No"/"Not Active"/"0" false, anything else null. */
  public static Boolean bool(String s) {
    if (s == null) return null;
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    return switch (t) {
      case "yes", "active", "true", "1", "enabled" -> Boolean.TRUE;
      case "no", "not active", "false", "0", "disabled" -> Boolean.FALSE;
      default -> null;
    };
  }

  public static String text(String s) {
    if (s == null) return null;
    String t = s.trim();
    if (t.isEmpty() || t.equals("N/A") || t.equals("[N/A]") || t.startsWith("[Requested") || t.startsWith("[Not Supported")
        || t.equals("[Unknown Error]") || t.equals("[Insufficient Permissions]")) return null;
    return t;
  }

  public static Long sum(Long a, Long b) {
    if (a == null) return b;
    if (b == null) return a;
    return a + b;
  }

  /** NVML clock-event (throttle) reason bits, in the order nvidia-smi names them. */
  public static long throttleBit(String reasonName) {
    return switch (reasonName) {
      case "gpu_idle" -> 0x1L;
      case "applications_clocks_setting" -> 0x2L;
      case "sw_power_cap" -> 0x4L;
      case "hw_slowdown" -> 0x8L;
      case "sync_boost" -> 0x10L;
      case "sw_thermal_slowdown" -> 0x20L;
      case "hw_thermal_slowdown" -> 0x40L;
      case "hw_power_brake_slowdown" -> 0x80L;
      case "display_clocks_setting", "display_clock_setting" -> 0x100L;
      default -> 0L;
    };
  }
}
