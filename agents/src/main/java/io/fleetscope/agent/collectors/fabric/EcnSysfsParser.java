package io.fleetscope.agent.collectors.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses the mlx5 ECN files of a network interface ({@code /sys/class/net/<if>/ecn/}), given as
 * file name relative to that directory -> content: {@code roce_np/enable/<prio>} and
 * {@code roce_rp/enable/<prio>} (1 = the notification / reaction point is on for that priority) and
 * {@code roce_np/cnp_dscp}. Pure; no I/O.
 */
public final class EcnSysfsParser {
  private EcnSysfsParser() {}

  /**
   * @param npPrios priorities with the notification point (CNP generation) on, ascending; null when
   *     no {@code roce_np/enable/*} file was read
   * @param rpPrios same for the reaction point (DCQCN rate limiting)
   * @param cnpDscp the CNPs' DSCP, null when not read
   */
  public record Ecn(List<Integer> npPrios, List<Integer> rpPrios, Integer cnpDscp) {}

  /** @throws IllegalArgumentException for a value that is not a number */
  public static Ecn parse(Map<String, String> files) {
    return new Ecn(enabled(files, "roce_np/enable/"), enabled(files, "roce_rp/enable/"),
        files.containsKey("roce_np/cnp_dscp") ? number(files, "roce_np/cnp_dscp") : null);
  }

  private static List<Integer> enabled(Map<String, String> files, String prefix) {
    List<Integer> out = null;
    for (Map.Entry<String, String> e : files.entrySet()) {
      if (!e.getKey().startsWith(prefix)) continue;
      int prio;
      try {
        prio = Integer.parseInt(e.getKey().substring(prefix.length()));
      } catch (NumberFormatException ex) {
        continue; // not a priority file
      }
      if (out == null) out = new ArrayList<>();
      if (number(files, e.getKey()) != 0) out.add(prio);
    }
    if (out != null) out.sort(null);
    return out;
  }

  private static int number(Map<String, String> files, String name) {
    String v = files.get(name).strip();
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("ecn/" + name + ": '" + v + "' is not a number");
    }
  }
}
