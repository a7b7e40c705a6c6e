package io.fleetscope.agent.collectors.fabric;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.PortConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Assembles one PortConfig from what each source gave (null: the source did not answer). Pure. */
public final class PortConfigBuilder {
  private PortConfigBuilder() {}

  /** Where the port is. */
  public record Port(String device, int port, String netdev, Integer rail, String linkLayer) {}

  /**
   * @param mtu the interface MTU file's content, or null
   * @param qos the mlnx_qos reading, or null
   * @param ecn the ECN sysfs reading, or null
   * @param dcqcn the debugfs DCQCN parameters (empty when not read)
   */
  public static PortConfig build(CollectContext ctx, Port p, String mtu, MlnxQosParser.Qos qos, EcnSysfsParser.Ecn ecn,
      Map<String, Long> dcqcn) {
    List<String> sources = new ArrayList<>();
    Integer mtuBytes = null;
    if (mtu != null) {
      try {
        mtuBytes = Integer.parseInt(mtu.strip());
        sources.add("sysfs");
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("class/net/" + p.netdev() + "/mtu: '" + mtu.strip() + "' is not a number");
      }
    }
    if (qos != null) sources.add("mlnx_qos");
    boolean ecnRead = ecn != null && (ecn.npPrios() != null || ecn.rpPrios() != null || ecn.cnpDscp() != null);
    if (ecnRead && !sources.contains("sysfs")) sources.add("sysfs");
    if (!dcqcn.isEmpty()) sources.add("debugfs");
    Integer cnpDscp = ecnRead && ecn.cnpDscp() != null ? ecn.cnpDscp()
        : dcqcn.containsKey("np_cnp_dscp") ? Integer.valueOf(dcqcn.get("np_cnp_dscp").intValue()) : null;
    return PortConfig.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0)
        .setSource(sources.isEmpty() ? null : String.join(",", sources))
        .setDevice(p.device()).setPort(p.port()).setNetdev(p.netdev()).setRail(p.rail()).setLinkLayer(p.linkLayer())
        .setMtuBytes(mtuBytes)
        .setTrust(qos == null ? null : qos.trust())
        .setPfcPrios(qos == null || qos.pfcPrios() == null ? null : List.copyOf(qos.pfcPrios()))
        .setEcnNpPrios(ecnRead && ecn.npPrios() != null ? List.copyOf(ecn.npPrios()) : null)
        .setEcnRpPrios(ecnRead && ecn.rpPrios() != null ? List.copyOf(ecn.rpPrios()) : null)
        .setCnpDscp(cnpDscp)
        .setDcqcn(new TreeMap<>(dcqcn))
        .build();
  }

  /**
   * An InfiniBand port's record: its link (null: the rate file was missing or unreadable) and
   * capability mask (null likewise); the RoCE fields are null, the DCQCN map empty.
   */
  public static PortConfig infiniband(CollectContext ctx, Port p, IbLinkParser.Link link, String capMask) {
    return PortConfig.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0)
        .setSource(link == null && capMask == null ? null : "sysfs")
        .setDevice(p.device()).setPort(p.port()).setNetdev(p.netdev()).setRail(p.rail()).setLinkLayer(p.linkLayer())
        .setDcqcn(new TreeMap<>())
        .setRateGbps(link == null ? null : link.rateGbps()).setLinkWidth(link == null ? null : link.width())
        .setLinkSpeed(link == null ? null : link.speed()).setCapMask(capMask)
        .build();
  }

  /**
   * The record with what the verbs tools said of the port: its MTUs from ibv_devinfo (null: not
   * read) and, on InfiniBand ports, its SL-to-VL table from smpquery (null: not read); the tools that
   * answered are added to {@code source}.
   */
  public static PortConfig withVerbs(PortConfig rec, IbvDevinfoParser.PortMtu mtu, List<Integer> sl2vl) {
    List<String> sources = new ArrayList<>();
    if (rec.getSource() != null) sources.addAll(List.of(rec.getSource().split(",")));
    PortConfig.Builder b = PortConfig.newBuilder(rec);
    if (mtu != null && (mtu.activeMtu() != null || mtu.maxMtu() != null)) {
      b.setActiveMtu(mtu.activeMtu()).setMaxMtu(mtu.maxMtu());
      sources.add("ibv_devinfo");
    }
    if (sl2vl != null) {
      b.setSl2vl(List.copyOf(sl2vl));
      sources.add("smpquery");
    }
    return b.setSource(sources.isEmpty() ? null : String.join(",", sources)).build();
  }

  /** The Kafka key of a port's record: {@code node/device/port}. */
  public static String key(String node, Port p) {
    return node + "/" + p.device() + "/" + p.port();
  }

  /** Whether two readings say the same (everything but ts and agent_seq). */
  public static boolean sameConfig(PortConfig a, PortConfig b) {
    if (a == null || b == null) return false;
    PortConfig x = PortConfig.newBuilder(a).setTs(0).setAgentSeq(0).build();
    PortConfig y = PortConfig.newBuilder(b).setTs(0).setAgentSeq(0).build();
    return x.equals(y);
  }
}
