package io.fleetscope.loadgen.scenario;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written as {@code 90s}, {@code 5m}, {@code 1h30m}, {@code 500ms} or ISO-8601 ({@code PT5M}). */
public final class Durations {
  private Durations() {}

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");

  public static Duration parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty duration");
    }
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("pt") || s.startsWith("p")) {
      return Duration.parse(s.toUpperCase(Locale.ROOT));
    }
    if (s.matches("\\d+")) {
      return Duration.ofSeconds(Long.parseLong(s));
    }
    Matcher m = PART.matcher(s);
    long ms = 0;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        throw bad(text);
      }
      double v = Double.parseDouble(m.group(1));
      ms += switch (m.group(2)) {
        case "ms" -> (long) v;
        case "s" -> (long) (v * 1000);
        case "m" -> (long) (v * 60_000);
        case "h" -> (long) (v * 3_600_000);
        default -> (long) (v * 86_400_000);
      };
      end = m.end();
    }
    if (end != s.length() || end == 0) {
      throw bad(text);
    }
    return Duration.ofMillis(ms);
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException("bad duration '" + text + "': use e.g. 90s, 5m, 1h30m, 500ms or PT5M");
  }
}
