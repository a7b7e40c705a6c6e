package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.IbPortSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ibstat} text -> one {@link IbPortSample} per CA port with link layer, state, physical state
 * and rate (ibstat has no counters). An {@code ibpanic:} line (ibstat failing on one device, exit
 * 255) is reported as an error after the ports parsed before it are kept.
 */
public final class IbstatParser {
  private IbstatParser() {}

  public static final String SOURCE = "ibstat";

  public record Result(List<IbPortSample> ports, String error) {}

  /** A CA as ibstat describes it (for inventory: node GUID). */
  public record Ca(String device, String type, String nodeGuid) {}

  public static Result parse(String text, Map<String, Integer> rails, CollectContext ctx) {
    List<IbPortSample> out = new ArrayList<>();
    String error = null;
    String device = null;
    IbPortSample.Builder port = null;
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.startsWith("ibpanic:") || line.startsWith("ibwarn:")) {
        if (line.startsWith("ibpanic:")) error = line;
        continue;
      }
      if (line.length() > 4 && line.startsWith("CA '") && line.endsWith("'")) {
        if (port != null) out.add(port.build());
        port = null;
        device = line.substring(4, line.length() - 1);
      } else if (line.matches("Port \\d{1,5}:") && device != null) {
        if (port != null) out.add(port.build());
        int n = Integer.parseInt(line.substring(5, line.length() - 1));
        port = IbPortSample.newBuilder()
            .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
            .setDevice(device).setPort(n).setRail(IbValues.rail(device, rails));
      } else if (port != null) {
        int c = line.indexOf(':');
        if (c < 0) continue;
        String k = line.substring(0, c).strip();
        String v = line.substring(c + 1).strip();
        switch (k) {
          case "State" -> port.setState(IbValues.state(v));
          case "Physical state" -> port.setPhysState(IbValues.physState(v));
          case "Rate" -> port.setRateGbps(IbValues.rate(v));
          case "Link layer" -> port.setLinkLayer(v);
          default -> { }
        }
      }
    }
    if (port != null) out.add(port.build());
    return new Result(out, error);
  }
}
