package io.fleetscope.sink.grafana;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands a PostgreSQL panel query as Grafana's PostgreSQL data source does before sending it:
 * {@code $__timeFilter(col)}, {@code $__timeGroup(col, interval)}, {@code $__timeGroupAlias(col, interval)},
 * {@code $__timeFrom()}, {@code $__timeTo()}, {@code $__interval}, {@code $__interval_ms}, and
 * template variables ({@code $name}, {@code ${name}}, {@code [[name]]}). Anything left that looks like
 * a macro or a variable is refused, naming it, so a misspelt one cannot reach the database.
 */
public final class GrafanaMacros {
  private static final Pattern MACRO = Pattern.compile("\\$__(timeFilter|timeGroupAlias|timeGroup|timeFrom|timeTo)\\(");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\[\\[(\\w+)]]|\\$(\\w+)");

  private final Instant from;
  private final Instant to;
  private final Duration interval;
  private final Map<String, String> variables;

  public GrafanaMacros(Instant from, Instant to, Duration interval, Map<String, String> variables) {
    this.from = from;
    this.to = to;
    this.interval = interval;
    this.variables = variables;
  }

  public String expand(String sql) {
    String s = expandMacros(sql);
    s = s.replace("$__interval_ms", Long.toString(interval.toMillis()));
    s = s.replace("$__interval", grafanaInterval(interval));
    Matcher m = VARIABLE.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      String value = variables.get(name);
      if (value == null) {
        throw new IllegalArgumentException("unknown macro or variable '" + m.group() + "' in: " + sql);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String expandMacros(String sql) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    Matcher m = MACRO.matcher(sql);
    while (m.find(i)) {
      out.append(sql, i, m.start());
      int close = closingParen(sql, m.end() - 1);
      String[] args = splitArgs(sql.substring(m.end(), close));
      out.append(render(m.group(1), args, sql));
      i = close + 1;
    }
    out.append(sql.substring(i));
    return out.toString();
  }

  private String render(String macro, String[] args, String sql) {
    return switch (macro) {
      case "timeFilter" -> {
        need(macro, args, 1, sql);
        yield args[0] + " BETWEEN '" + from + "' AND '" + to + "'";
      }
      case "timeGroup", "timeGroupAlias" -> {
        if (args.length < 2) {
          throw new IllegalArgumentException("$__" + macro + " needs a column and an interval in: " + sql);
        }
        long seconds = seconds(args[1].trim());
        String group = "floor(extract(epoch from " + args[0].trim() + ")/" + seconds + ")*" + seconds;
        yield macro.equals("timeGroupAlias") ? group + " AS \"time\"" : group;
      }
      case "timeFrom" -> "'" + from + "'";
      case "timeTo" -> "'" + to + "'";
      default -> throw new IllegalArgumentException("unsupported macro $__" + macro);
    };
  }

  private static void need(String macro, String[] args, int n, String sql) {
    if (args.length != n || args[0].isBlank()) {
      throw new IllegalArgumentException("$__" + macro + " needs " + n + " argument(s) in: " + sql);
    }
  }

  private long seconds(String interval) {
    String t = interval.replace("'", "");
    if (t.equals("$__interval")) {
      return interval().toSeconds();
    }
    Matcher m = Pattern.compile("(\\d+)(ms|s|m|h|d)").matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("cannot read the interval '" + interval + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Math.max(1, n / 1000);
      case "s" -> n;
      case "m" -> n * 60;
      case "h" -> n * 3600;
      default -> n * 86400;
    };
  }

  private Duration interval() {
    return interval;
  }

  /** Grafana's spelling of an interval: 30s, 1m, 2h. */
  static String grafanaInterval(Duration d) {
    long s = d.toSeconds();
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  private static int closingParen(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced parentheses after position " + open + " in: " + s);
  }

  private static String[] splitArgs(String inner) {
    if (inner.isBlank()) {
      return new String[0];
    }
    java.util.List<String> args = new java.util.ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        args.add(inner.substring(start, i).trim());
        start = i + 1;
      }
    }
    args.add(inner.substring(start).trim());
    return args.toArray(new String[0]);
  }
}
