package io.fleetscope.console;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * A time range asked for by {@code from} and {@code to} (ISO-8601 instants, e.g. 2026-03-01T10:00:00Z),
 * or by {@code last} (a duration such as 15m, 1h, 6h, 2d: the range ending now). Defaults to the last hour.
 * A range is at most {@link #MAX_SPAN} long; the source it is read from and the bucket width follow its
 * length so that every series answers about {@link #TARGET_POINTS} points, whatever the range.
 */
public record TimeRange(Instant from, Instant to) {
  /** The longest range one request may ask for. */
  public static final Duration MAX_SPAN = Duration.ofDays(31);
  /** The default range: the last hour. */
  public static final Duration DEFAULT_SPAN = Duration.ofHours(1);
  /** About how many points a series has. */
  public static final int TARGET_POINTS = 360;

  /** Where a series of this range is read from. */
  public enum Resolution {
    /** the raw hypertable (ranges up to 6 hours) */
    RAW,
    /** the 1-minute rollup (up to 4 days) */
    MINUTE,
    /** the 1-hour rollup */
    HOUR
  }

  public TimeRange {
    if (!from.isBefore(to)) {
      throw new ConsoleServer.BadParam("from must be before to, got from=" + from + " to=" + to);
    }
    if (Duration.between(from, to).compareTo(MAX_SPAN) > 0) {
      throw new ConsoleServer.BadParam("the range is at most " + MAX_SPAN.toDays() + " days, got "
          + Duration.between(from, to).toDays() + " days");
    }
  }

  /** The range the query parameters name, {@code now} being the end of a {@code last} range. */
  public static TimeRange parse(Map<String, String> q, Instant now) {
    String last = q.get("last");
    String from = q.get("from");
    String to = q.get("to");
    if (last != null && (from != null || to != null)) {
      throw new ConsoleServer.BadParam("give either last or from/to, not both");
    }
    if (last != null) {
      return new TimeRange(now.minus(span("last", last)), now);
    }
    Instant t = to == null ? now : instant("to", to);
    Instant f = from == null ? t.minus(DEFAULT_SPAN) : instant("from", from);
    return new TimeRange(f, t);
  }

  /** A duration written as a whole number and a unit: s, m, h or d (e.g. 90s, 15m, 6h, 7d). */
  static Duration span(String name, String v) {
    if (!v.matches("[1-9][0-9]{0,6}[smhd]")) {
      throw new ConsoleServer.BadParam(name + " must be a whole number and a unit s, m, h or d (e.g. 15m, 6h, 7d), got '"
          + shorten(v) + "'");
    }
    long n = Long.parseLong(v.substring(0, v.length() - 1));
    return switch (v.charAt(v.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  private static Instant instant(String name, String v) {
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw new ConsoleServer.BadParam(name + " must be an ISO-8601 time such as 2026-03-01T10:00:00Z, got '" + shorten(v) + "'");
    }
  }

  static String shorten(String v) {
    return v.length() > 40 ? v.substring(0, 40) + "..." : v;
  }

  public Duration span() {
    return Duration.between(from, to);
  }

  /** Raw samples up to 6 hours, the 1-minute rollup up to 4 days, the hourly rollup beyond. */
  public Resolution resolution() {
    Duration s = span();
    if (s.compareTo(Duration.ofHours(6)) <= 0) {
      return Resolution.RAW;
    }
    return s.compareTo(Duration.ofDays(4)) <= 0 ? Resolution.MINUTE : Resolution.HOUR;
  }

  /** The bucket width in seconds: the span over {@link #TARGET_POINTS}, at least the source's own step. */
  public long bucketSeconds() {
    long floor = switch (resolution()) {
      case RAW -> 1;
      case MINUTE -> 60;
      case HOUR -> 3600;
    };
    long raw = (span().getSeconds() + TARGET_POINTS - 1) / TARGET_POINTS;
    return Math.max(floor, ((raw + floor - 1) / floor) * floor);
  }
}
