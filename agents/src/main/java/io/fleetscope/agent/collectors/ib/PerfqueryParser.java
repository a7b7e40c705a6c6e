package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.IbPortSample;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code perfquery -x} (extended, 64-bit port counters) -> one {@link IbPortSample}. PortXmitData /
 * PortRcvData count 4-octet words and become bytes. Null when the output is empty (perfquery printed
 * nothing for the port).
 */
public final class PerfqueryParser {
  private PerfqueryParser() {}

  public static final String SOURCE = "perfquery";

  public static Map<String, Long> counters(String text) {
    Map<String, Long> c = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) continue;
      int colon = l.indexOf(':');
      if (colon <= 0) continue;
      String key = l.substring(0, colon);
      String v = l.substring(colon + 1).replaceFirst("^\\.+", "").strip();
      Long n = v.startsWith("0x") ? null : IbValues.counter(v);
      if (n != null) c.put(key, n);
    }
    return c;
  }

  public static IbPortSample parse(String text, String device, int port, Integer rail, CollectContext ctx) {
    Map<String, Long> c = counters(text);
    if (c.isEmpty()) return null;
    return IbPortSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setDevice(device).setPort(port).setRail(rail)
        .setXmitBytes(IbValues.words(c.get("PortXmitData")))
        .setRcvBytes(IbValues.words(c.get("PortRcvData")))
        .setXmitPkts(c.get("PortXmitPkts"))
        .setRcvPkts(c.get("PortRcvPkts"))
        .setXmitWait(c.get("PortXmitWait"))
        .setSymbolErrors(c.get("SymbolErrorCounter"))
        .setLinkDowned(c.get("LinkDownedCounter"))
        .setLinkErrorRecovery(c.get("LinkErrorRecoveryCounter"))
        .setRcvErrors(c.get("PortRcvErrors"))
        .setXmitDiscards(c.get("PortXmitDiscards"))
        .build();
  }
}
