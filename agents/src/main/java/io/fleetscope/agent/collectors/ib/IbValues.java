package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.collectors.gpu.Values;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of sysfs / ibstat value strings and the HCA -> rail rule. */
public final class IbValues {
  private IbValues() {}

  private static final Pattern RATE = Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?)");
  private static final Pattern MLX5 = Pattern.compile("^mlx5_(\\d{1,9})$");

  /** {@code "4: ACTIVE"} -> {@code ACTIVE}; {@code "Active"} -> {@code ACTIVE}. */
  public static String state(String s) {
    if (s == null) return null;
    String t = s.strip();
    int c = t.indexOf(':');
    if (c >= 0) t = t.substring(c + 1).strip();
    return t.isEmpty() ? null : t.toUpperCase(java.util.Locale.ROOT);
  }

  /** {@code "5: LinkUp"} -> {@code LinkUp}. */
  public static String physState(String s) {
    if (s == null) return null;
    String t = s.strip();
    int c = t.indexOf(':');
    if (c >= 0) t = t.substring(c + 1).strip();
    return t.isEmpty() ? null : t;
  }

  /** {@code "400 Gb/sec (4X NDR)"} or {@code "400"} -> 400.0 (Gb/s). */
  public static Double rate(String s) {
    if (s == null) return null;
    Matcher m = RATE.matcher(s);
    return m.find() ? Values.finite(Double.valueOf(m.group(1))) : null;
  }

  /** A counter file: a number, or null for {@code N/A (no PMA)} and other non-numbers. */
  public static Long counter(String s) {
    if (s == null) return null;
    String t = s.strip();
    try {
      return Long.parseUnsignedLong(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** 4-octet words -> bytes. */
  public static Long words(Long w) {
    return w == null ? null : w * 4;
  }

  /** Rail of an HCA: the configured map first, else {@code mlx5_N -> N}, else null. */
  public static Integer rail(String device, Map<String, Integer> rails) {
    Integer r = rails.get(device);
    if (r != null) return r;
    Matcher m = MLX5.matcher(device);
    return m.matches() ? Integer.valueOf(m.group(1)) : null;
  }
}
