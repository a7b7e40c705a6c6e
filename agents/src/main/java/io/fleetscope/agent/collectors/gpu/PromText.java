package io.fleetscope.agent.collectors.gpu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A minimal parser of the Prometheus text exposition format (samples only; HELP/TYPE/NOTE comments skipped). */
public final class PromText {
  private PromText() {}

  public record Sample(String name, Map<String, String> labels, double value) {}

  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : text.split("\n")) {
      lineNo++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) continue;
      int i = 0;
      while (i < l.length() && (Character.isLetterOrDigit(l.charAt(i)) || l.charAt(i) == '_' || l.charAt(i) == ':')) i++;
      String name = l.substring(0, i);
      Map<String, String> labels = new LinkedHashMap<>();
      if (i < l.length() && l.charAt(i) == '{') {
        i++;
        while (i < l.length() && l.charAt(i) != '}') {
          int eq = l.indexOf('=', i);
          if (eq < 0) throw new IllegalArgumentException("line " + lineNo + ": label without '='");
          String key = l.substring(i, eq).strip();
          if (eq + 1 >= l.length() || l.charAt(eq + 1) != '"') throw new IllegalArgumentException("line " + lineNo + ": label value not quoted");
          StringBuilder v = new StringBuilder();
          int j = eq + 2;
          for (; j < l.length() && l.charAt(j) != '"'; j++) {
            char c = l.charAt(j);
            if (c == '\\' && j + 1 < l.length()) {
              char n = l.charAt(++j);
              v.append(n == 'n' ? '\n' : n);
            } else {
              v.append(c);
            }
          }
          labels.put(key, v.toString());
          i = j + 1;
          while (i < l.length() && (l.charAt(i) == ',' || l.charAt(i) == ' ')) i++;
        }
        i++;
      }
      String rest = l.substring(Math.min(i, l.length())).strip();
      String num = rest.split("\\s+")[0];
      double value;
      try {
        value = switch (num) {
          case "NaN" -> Double.NaN;
          case "+Inf" -> Double.POSITIVE_INFINITY;
          case "-Inf" -> Double.NEGATIVE_INFINITY;
          default -> Double.parseDouble(num);
        };
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("line " + lineNo + ": value '" + num + "' of " + name + " is not a number");
      }
      out.add(new Sample(name, labels, value));
    }
    return out;
  }
}
