package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.IbPortSample;
import java.util.Map;

/**
 * The files of one sysfs port directory ({@code ports/N/}: {@code state}, {@code phys_state},
 * {@code rate}, {@code link_layer}, {@code counters/*}, {@code counters_ext/*} (mlx4),
 * {@code hw_counters/*}) -> one {@link IbPortSample}. {@code port_xmit_data}/{@code port_rcv_data}
 * count 4-octet words and are converted to bytes; mlx4's 64-bit {@code counters_ext/*_64} win over
 * the 32-bit {@code counters/*}. RoCE: {@code np_ecn_marked_roce_packets}, {@code np_cnp_sent},
 * {@code rp_cnp_handled} from hw_counters. {@code counter_width_bits} is 32 when an mlx4 port's data
 * counters came from the 32-bit {@code counters/} files (they wrap; downstream rates handle it).
 */
public final class IbSysfsParser {
  private IbSysfsParser() {}

  public static final String SOURCE = "sysfs";

  /** @param files relative file name (e.g. {@code counters/port_xmit_data}) -> content */
  public static IbPortSample parse(String device, int port, Map<String, String> files, Integer rail, CollectContext ctx) {
    Long xmitData = first(files, "counters_ext/port_xmit_data_64", "counters/port_xmit_data");
    Long rcvData = first(files, "counters_ext/port_rcv_data_64", "counters/port_rcv_data");
    Long xmitPkts = first(files, "counters_ext/port_xmit_packets_64", "counters/port_xmit_packets");
    Long rcvPkts = first(files, "counters_ext/port_rcv_packets_64", "counters/port_rcv_packets");
    // mlx4 keeps 32-bit PMA counters in counters/ and 64-bit ones in counters_ext/; say so when we had to use the narrow ones
    boolean narrow = device.startsWith("mlx4_") && xmitData != null
        && IbValues.counter(files.get("counters_ext/port_xmit_data_64")) == null;
    return IbPortSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setDevice(device).setPort(port).setRail(rail)
        .setLinkLayer(trim(files.get("link_layer")))
        .setState(IbValues.state(files.get("state")))
        .setPhysState(IbValues.physState(files.get("phys_state")))
        .setRateGbps(IbValues.rate(files.get("rate")))
        .setXmitBytes(IbValues.words(xmitData))
        .setRcvBytes(IbValues.words(rcvData))
        .setXmitPkts(xmitPkts)
        .setRcvPkts(rcvPkts)
        .setXmitWait(first(files, "counters/port_xmit_wait"))
        .setSymbolErrors(first(files, "counters/symbol_error"))
        .setLinkDowned(first(files, "counters/link_downed"))
        .setLinkErrorRecovery(first(files, "counters/link_error_recovery"))
        .setRcvErrors(first(files, "counters/port_rcv_errors"))
        .setXmitDiscards(first(files, "counters/port_xmit_discards"))
        .setEcnMarkedPkts(first(files, "hw_counters/np_ecn_marked_roce_packets"))
        .setCnpSent(first(files, "hw_counters/np_cnp_sent"))
        .setCnpHandled(first(files, "hw_counters/rp_cnp_handled"))
        .setCounterWidthBits(narrow ? 32 : null)
        .build();
  }

  private static Long first(Map<String, String> files, String... names) {
    for (String n : names) {
      Long v = IbValues.counter(files.get(n));
      if (v != null) return v;
    }
    return null;
  }

  private static String trim(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
