package io.fleetscope.agent.collectors.fabric;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the text {@code mlnx_qos -i <netdev>} prints (MLNX_OFED): the priority trust state and the
 * priorities with PFC enabled (the {@code enabled} row of the {@code PFC configuration:} table).
 * Pure; no I/O.
 */
public final class MlnxQosParser {
  private MlnxQosParser() {}

  /**
   * What the output says.
   *
   * @param trust {@code pcp} or {@code dscp}, null when the output has no trust line
   * @param pfcPrios the priorities whose PFC is enabled, ascending; null when the output has no PFC table
   */
  public record Qos(String trust, List<Integer> pfcPrios) {}

  /**
   * @throws IllegalArgumentException for a PFC table whose {@code priority} and {@code enabled}
   *     rows do not line up, or that holds something else than 0 / 1
   */
  public static Qos parse(String text) {
    String trust = null;
    List<Integer> prios = null;
    String[] lines = text.split("\\R");
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].strip();
      if (l.startsWith("Priority trust state:")) {
        trust = l.substring("Priority trust state:".length()).strip().toLowerCase(java.util.Locale.ROOT);
        if (trust.isEmpty()) trust = null;
      } else if (l.startsWith("PFC configuration:")) {
        prios = pfcTable(lines, i + 1);
      }
    }
    return new Qos(trust, prios);
  }

  private static List<Integer> pfcTable(String[] lines, int from) {
    String[] priority = null;
    String[] enabled = null;
    // the rows that follow the header (priority, enabled, and on newer drivers buffer), up to the
    // first line that is none of them (the per-TC lines also have a "priority:" of their own)
    for (int i = from; i < lines.length && (priority == null || enabled == null); i++) {
      String[] f = lines[i].strip().split("\\s+");
      String head = f[0].endsWith(":") ? f[0].substring(0, f[0].length() - 1) : f[0];
      if (head.equals("priority") && priority == null) priority = f;
      else if (head.equals("enabled") && enabled == null) enabled = f;
      else if (!head.equals("buffer")) break;
    }
    if (priority == null || enabled == null) {
      throw new IllegalArgumentException("mlnx_qos: PFC configuration without its priority and enabled rows");
    }
    if (priority.length != enabled.length) {
      throw new IllegalArgumentException("mlnx_qos: PFC table has " + (priority.length - 1) + " priorities but "
          + (enabled.length - 1) + " enabled values");
    }
    List<Integer> out = new ArrayList<>();
    for (int k = 1; k < priority.length; k++) {
      String e = enabled[k];
      if (!e.equals("0") && !e.equals("1")) {
        throw new IllegalArgumentException("mlnx_qos: PFC enabled value '" + e + "' for priority " + priority[k] + " is not 0 or 1");
      }
      if (e.equals("1")) out.add(Integer.parseInt(priority[k]));
    }
    out.sort(null);
    return out;
  }
}
