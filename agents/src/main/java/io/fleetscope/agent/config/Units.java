package io.fleetscope.agent.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the human units used in the YAML file: durations ({@code 500ms, 10s, 2m, 1h}) and sizes ({@code 64KiB, 256MiB}). */
public final class Units {
  private Units() {}

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|KB|MB|GB)?", Pattern.CASE_INSENSITIVE);

  /** A plain number means seconds. */
  public static Duration duration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a duration (use e.g. 500ms, 10s, 2m, 1h)");
    }
    double v = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double ms = switch (unit) {
      case "ms" -> v;
      case "s" -> v * 1_000;
      case "m" -> v * 60_000;
      default -> v * 3_600_000;
    };
    return Duration.ofMillis(Math.round(ms));
  }

  /** A plain number means bytes; KiB/MiB/GiB (and KB/MB/GB, taken as binary too) are accepted. */
  public static long bytes(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a size (use e.g. 65536, 64KiB, 256MiB, 1GiB)");
    }
    long v = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
    return switch (unit) {
      case "kib", "kb" -> v << 10;
      case "mib", "mb" -> v << 20;
      case "gib", "gb" -> v << 30;
      default -> v;
    };
  }

  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) return ms / 3_600_000 + "h";
    if (ms % 60_000 == 0) return ms / 60_000 + "m";
    if (ms % 1_000 == 0) return ms / 1_000 + "s";
    return ms + "ms";
  }
}
