package io.fleetscope.agent.collectors.fabric;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MTUs of every port in {@code ibv_devinfo} (or {@code ibv_devinfo -v}) output, rdma-core's
 * libibverbs/examples/devinfo.c: a {@code hca_id:\t<device>} line per device, then per port
 * {@code port:\t<n>} and, tab-indented, {@code max_mtu:\t\t4096 (5)}, {@code active_mtu:\t\t1024 (3)}
 * and {@code link_layer:\t\tInfiniBand}. Other lines (GIDs, capability flags of {@code -v}) are
 * skipped. Pure.
 */
public final class IbvDevinfoParser {
  private static final Pattern HCA = Pattern.compile("^hca_id:\\s*(\\S+)\\s*$");
  private static final Pattern PORT = Pattern.compile("^\\s+port:\\s*(\\d+)\\s*$");
  private static final Pattern MTU = Pattern.compile("^\\s+(max_mtu|active_mtu):\\s*(.*?)\\s*$");
  private static final Pattern MTU_VALUE = Pattern.compile("^(256|512|1024|2048|4096) \\(\\d+\\)$");
  private static final Pattern LINK_LAYER = Pattern.compile("^\\s+link_layer:\\s*(\\S+)\\s*$");

  private IbvDevinfoParser() {}

  /** One port's MTUs in bytes (null: not printed) and link layer. */
  public record PortMtu(Integer maxMtu, Integer activeMtu, String linkLayer) {}

  /**
   * Every port of the output, keyed {@code <device>/<port>}, in output order; IllegalArgumentException
   * naming the line when a port line comes before any {@code hca_id} or an MTU is not one of the five
   * InfiniBand MTUs (devinfo prints {@code invalid MTU (n)} for those).
   */
  public static Map<String, PortMtu> parse(String out) {
    Map<String, PortMtu> ports = new LinkedHashMap<>();
    String hca = null;
    String key = null;
    for (String line : (out == null ? "" : out).split("\n", -1)) {
      Matcher m;
      if ((m = HCA.matcher(line)).matches()) {
        hca = m.group(1);
        key = null;
      } else if ((m = PORT.matcher(line)).matches()) {
        if (hca == null) throw new IllegalArgumentException("ibv_devinfo: '" + line.strip() + "' before any hca_id line");
        key = hca + "/" + Integer.parseInt(m.group(1));
        ports.put(key, new PortMtu(null, null, null));
      } else if (key != null && (m = MTU.matcher(line)).matches()) {
        Matcher v = MTU_VALUE.matcher(m.group(2));
        if (!v.matches()) {
          throw new IllegalArgumentException("ibv_devinfo: " + key + " " + m.group(1) + " '" + m.group(2) + "' is not an InfiniBand MTU");
        }
        int bytes = Integer.parseInt(v.group(1));
        PortMtu p = ports.get(key);
        ports.put(key, "max_mtu".equals(m.group(1)) ? new PortMtu(bytes, p.activeMtu(), p.linkLayer())
            : new PortMtu(p.maxMtu(), bytes, p.linkLayer()));
      } else if (key != null && (m = LINK_LAYER.matcher(line)).matches()) {
        PortMtu p = ports.get(key);
        ports.put(key, new PortMtu(p.maxMtu(), p.activeMtu(), m.group(1)));
      }
    }
    return ports;
  }
}
