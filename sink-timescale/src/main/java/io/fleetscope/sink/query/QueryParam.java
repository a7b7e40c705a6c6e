package io.fleetscope.sink.query;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parameter of a named query: its type, its default (null: required) and what it means.
 * Values are parsed here and always bound to the statement, never put into the SQL text.
 */
public record QueryParam(String name, Type type, String defaultValue, String doc) {

  /** Parameter types. */
  public enum Type {
    /** ISO-8601 instant (2026-05-31T10:00:00Z), a date (UTC midnight), epoch ms, now, or now-6h / now-30m / now-7d. */
    TIME,
    /** a whole number */
    INT,
    /** text; an empty value means "any" where the query says so */
    TEXT
  }

  private static final Pattern RELATIVE = Pattern.compile("now(?:\\s*-\\s*(\\d+)\\s*([smhd]))?");

  public static QueryParam required(String name, Type t, String doc) {
    return new QueryParam(name, t, null, doc);
  }

  public static QueryParam optional(String name, Type t, String def, String doc) {
    return new QueryParam(name, t, def, doc);
  }

  public boolean isRequired() {
    return defaultValue == null;
  }

  public String describe() {
    return name + " (" + type.name().toLowerCase() + (isRequired() ? ", required" : ", default '" + defaultValue + "'")
        + "): " + doc;
  }

  /** Parses a value; the exception names the parameter and what is allowed. */
  public Object parse(String raw, Instant now) {
    String v = raw.trim();
    switch (type) {
      case INT:
        try {
          return Long.parseLong(v);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("parameter " + name + " must be a whole number, got '" + raw + "'");
        }
      case TIME:
        return parseTime(v, now);
      default:
        return v;
    }
  }

  Instant parseTime(String v, Instant now) {
    Matcher m = RELATIVE.matcher(v);
    if (m.matches()) {
      if (m.group(1) == null) {
        return now;
      }
      long n = Long.parseLong(m.group(1));
      Duration d = switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
      return now.minus(d);
    }
    if (v.matches("\\d{10,}")) {
      return Instant.ofEpochMilli(Long.parseLong(v));
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      try {
        return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
      } catch (DateTimeParseException e2) {
        throw new IllegalArgumentException("parameter " + name + " must be a time (2026-05-31T10:00:00Z, 2026-05-31, "
            + "epoch ms, now, now-6h, now-30m, now-7d), got '" + v + "'");
      }
    }
  }

  static void bind(PreparedStatement p, int idx, Object value) throws SQLException {
    if (value instanceof Instant i) {
      p.setTimestamp(idx, Timestamp.from(i));
    } else if (value instanceof Long l) {
      p.setLong(idx, l);
    } else {
      p.setString(idx, (String) value);
    }
  }
}
