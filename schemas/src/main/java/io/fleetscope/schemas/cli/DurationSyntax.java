package io.fleetscope.schemas.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way durations are written on every FleetScope command line: whole numbers with a unit,
 * largest unit first, each unit at most once: {@code 500ms}, {@code 5s}, {@code 10m}, {@code 1h},
 * {@code 1m30s}, {@code 1h30m}. Units are {@code h}, {@code m}, {@code s} and {@code ms}. Anything
 * else (a bare number, a decimal, ISO-8601, a space) is refused with a message that shows the syntax.
 */
public final class DurationSyntax {
  /** Shown in every error and in option descriptions. */
  public static final String EXAMPLES = "500ms, 5s, 10m, 1h or 1m30s";

  private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");
  private static final String[] UNITS = {"h", "m", "s", "ms"};

  private DurationSyntax() {}

  /** Parses {@code text}; throws IllegalArgumentException naming the syntax when it does not fit. */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      throw bad(text);
    }
    Matcher m = PART.matcher(text);
    Duration total = Duration.ZERO;
    int end = 0;
    int lastUnit = -1;
    while (end < text.length()) {
      if (!m.find(end) || m.start() != end) {
        throw bad(text);
      }
      int unit = unitIndex(m.group(2));
      if (unit <= lastUnit) {
        throw bad(text);
      }
      lastUnit = unit;
      long n;
      try {
        n = Long.parseLong(m.group(1));
      } catch (NumberFormatException e) {
        throw bad(text);
      }
      total = total.plus(of(n, unit));
      end = m.end();
    }
    return total;
  }

  /** The shortest text {@link #parse} reads back as {@code d} (milliseconds precision): {@code 1m30s}, {@code 0s}. */
  public static String format(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("negative duration " + d);
    }
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    long[] sizes = {3_600_000L, 60_000L, 1000L, 1L};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sizes.length; i++) {
      long n = ms / sizes[i];
      if (n > 0) {
        sb.append(n).append(UNITS[i]);
        ms -= n * sizes[i];
      }
    }
    return sb.toString();
  }

  private static int unitIndex(String unit) {
    for (int i = 0; i < UNITS.length; i++) {
      if (UNITS[i].equals(unit)) {
        return i;
      }
    }
    throw new IllegalStateException(unit);
  }

  private static Duration of(long n, int unit) {
    return switch (unit) {
      case 0 -> Duration.ofHours(n);
      case 1 -> Duration.ofMinutes(n);
      case 2 -> Duration.ofSeconds(n);
      default -> Duration.ofMillis(n);
    };
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException("'" + text + "' is not a duration: write a whole number and a unit (h, m, s, ms),"
        + " largest first, e.g. " + EXAMPLES);
  }
}
