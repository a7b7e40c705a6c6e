package io.fleetscope.agent.collectors.jobs;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm host lists: {@code node-[63-65]}, {@code gpu[01-02,07],cpu3}: the host names (a range
 * keeps the zero padding of its first bound), or whether a host is one of them without expanding
 * the ranges. One bracket group per name; {@code (null)} and blank are no host.
 */
public final class Hostlist {
  private Hostlist() {}

  /** Ranges wider than this are refused (a typo, not a cluster). */
  static final int MAX_HOSTS = 100_000;

  public static List<String> expand(String list) {
    List<String> out = new ArrayList<>();
    if (list == null || list.isBlank() || list.equals("(null)")) return out;
    for (String part : splitOutsideBrackets(list.strip())) {
      int open = part.indexOf('[');
      if (open < 0) {
        if (!part.isEmpty()) out.add(part);
        continue;
      }
      int close = part.indexOf(']', open);
      if (close < 0) throw new IllegalArgumentException("host list '" + list + "': no ] in '" + part + "'");
      String prefix = part.substring(0, open);
      String suffix = part.substring(close + 1);
      for (String r : part.substring(open + 1, close).split(",")) {
        int dash = r.indexOf('-');
        try {
          if (dash < 0) {
            out.add(prefix + r + suffix);
            continue;
          }
          String lo = r.substring(0, dash);
          long a = Long.parseLong(lo);
          long b = Long.parseLong(r.substring(dash + 1));
          if (b < a || b - a > MAX_HOSTS) throw new NumberFormatException();
          for (long i = a; i <= b; i++) out.add(prefix + String.format("%0" + lo.length() + "d", i) + suffix);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("host list '" + list + "': range '" + r + "' is not like 01-04");
        }
      }
    }
    return out;
  }

  /** Whether {@code list} names {@code host}, without expanding its ranges. */
  public static boolean contains(String list, String host) {
    if (list == null || list.isBlank() || list.equals("(null)")) return false;
    for (String part : splitOutsideBrackets(list.strip())) {
      int open = part.indexOf('[');
      if (open < 0) {
        if (part.equals(host)) return true;
        continue;
      }
      int close = part.indexOf(']', open);
      if (close < 0) throw new IllegalArgumentException("host list '" + list + "': no ] in '" + part + "'");
      String prefix = part.substring(0, open);
      String suffix = part.substring(close + 1);
      if (!host.startsWith(prefix) || !host.endsWith(suffix) || host.length() < prefix.length() + suffix.length()) continue;
      String middle = host.substring(prefix.length(), host.length() - suffix.length());
      for (String r : part.substring(open + 1, close).split(",")) {
        int dash = r.indexOf('-');
        if (dash < 0) {
          if (r.equals(middle)) return true;
          continue;
        }
        String lo = r.substring(0, dash);
        try {
          long a = Long.parseLong(lo);
          long b = Long.parseLong(r.substring(dash + 1));
          if (b < a) throw new NumberFormatException();
          if (!middle.matches("\\d{1,18}")) continue;
          long v = Long.parseLong(middle);
          if (v >= a && v <= b && String.format("%0" + lo.length() + "d", v).equals(middle)) return true;
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("host list '" + list + "': range '" + r + "' is not like 01-04");
        }
      }
    }
    return false;
  }

  private static List<String> splitOutsideBrackets(String s) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '[') depth++;
      else if (c == ']') depth = Math.max(0, depth - 1);
      else if (c == ',' && depth == 0) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }
}
