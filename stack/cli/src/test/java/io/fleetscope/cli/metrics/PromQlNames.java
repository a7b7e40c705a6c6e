package io.fleetscope.cli.metrics;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: what is left of it once strings, label matchers,
 * range and subquery selectors, grouping clauses ({@code by}, {@code without}, {@code on},
 * {@code ignoring}, {@code group_left}, {@code group_right}), function and aggregation names,
 * keywords and numbers are taken out.
 */
public final class PromQlNames {
  private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
  private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
      "offset", "bool", "and", "or", "unless", "inf", "nan", "atan2");

  private PromQlNames() {}

  public static Set<String> of(String expr) {
    String s = STRINGS.matcher(expr).replaceAll(" ");
    s = MATCHERS.matcher(s).replaceAll(" ");
    s = RANGES.matcher(s).replaceAll(" ");
    s = GROUPING.matcher(s).replaceAll(" ");
    Set<String> out = new LinkedHashSet<>();
    Matcher m = IDENT.matcher(s);
    while (m.find()) {
      String id = m.group();
      int after = m.end();
      while (after < s.length() && Character.isWhitespace(s.charAt(after))) {
        after++;
      }
      boolean call = after < s.length() && s.charAt(after) == '(';
      boolean partOfNumber = m.start() > 0 && (Character.isDigit(s.charAt(m.start() - 1)) || s.charAt(m.start() - 1) == '.');
      if (!call && !partOfNumber && !KEYWORDS.contains(id.toLowerCase())) {
        out.add(id);
      }
    }
    return out;
  }
}
