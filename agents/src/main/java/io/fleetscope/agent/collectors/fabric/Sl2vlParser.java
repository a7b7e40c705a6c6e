package io.fleetscope.agent.collectors.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A channel adapter port's SL-to-VL table in {@code smpquery sl2vl} output (rdma-core
 * infiniband-diags/smpquery.c sl2vl_table and libibmad dump.c mad_dump_sltovl): a
 * {@code # SL2VL table: <port id>} line, the {@code #                 SL: | 0| 1|...|15|} header and one
 * {@code ports: in  0, out  0: | 0| 1| 0| 1|...|} row per input/output port pair (one for a channel
 * adapter, every port for a switch). Pure.
 */
public final class Sl2vlParser {
  private static final Pattern ROW = Pattern.compile("^ports: in\\s*(\\d+), out\\s*(\\d+):\\s*\\|((?:\\s*\\d+\\|){16})\\s*$");

  private Sl2vlParser() {}

  /**
   * The VL of service levels 0 to 15 from the row for input port 0 and output port 0 (a channel
   * adapter's only row); IllegalArgumentException naming what was read when there is no such row or
   * a VL is outside 0-15.
   */
  public static List<Integer> parse(String out) {
    for (String line : (out == null ? "" : out).split("\n")) {
      Matcher m = ROW.matcher(line);
      if (!m.matches() || Integer.parseInt(m.group(1)) != 0 || Integer.parseInt(m.group(2)) != 0) continue;
      List<Integer> vls = new ArrayList<>(16);
      for (String cell : m.group(3).split("\\|")) {
        int vl = Integer.parseInt(cell.strip());
        if (vl > 15) throw new IllegalArgumentException("smpquery sl2vl: VL " + vl + " is outside 0-15 in '" + line.strip() + "'");
        vls.add(vl);
      }
      return List.copyOf(vls);
    }
    String first = out == null || out.isBlank() ? "" : out.strip().split("\n")[0];
    throw new IllegalArgumentException("smpquery sl2vl: no 'ports: in 0, out 0: |...|' row of 16 VLs (output begins '" + first + "')");
  }
}
