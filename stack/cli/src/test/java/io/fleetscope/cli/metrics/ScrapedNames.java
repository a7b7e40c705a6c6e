package io.fleetscope.cli.metrics;

import java.util.Set;
import java.util.TreeSet;

/**
 * The series names a Prometheus text exposition (0.0.4) offers to PromQL: every sample's name, and
 * for each declared family the names its type implies even before it has a sample (a labelled
 * counter nobody incremented yet): {@code _bucket}, {@code _sum}, {@code _count} for a histogram,
 * {@code _sum}, {@code _count} for a summary, {@code _total} for a counter, the name itself otherwise.
 */
public final class ScrapedNames {
  private ScrapedNames() {}

  public static Set<String> of(String exposition) {
    Set<String> out = new TreeSet<>();
    for (String line : exposition.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] f = line.substring("# TYPE ".length()).trim().split("\\s+");
        if (f.length == 2) {
          switch (f[1]) {
            case "histogram" -> {
              out.add(f[0] + "_bucket");
              out.add(f[0] + "_sum");
              out.add(f[0] + "_count");
            }
            case "summary" -> {
              out.add(f[0] + "_sum");
              out.add(f[0] + "_count");
            }
            case "counter" -> out.add(f[0].endsWith("_total") ? f[0] : f[0] + "_total");
            default -> out.add(f[0]);
          }
        }
      } else if (!line.isBlank() && !line.startsWith("#")) {
        int end = 0;
        while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
          end++;
        }
        out.add(line.substring(0, end));
      }
    }
    return out;
  }
}
