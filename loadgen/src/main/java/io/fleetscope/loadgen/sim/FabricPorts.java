package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.PortConfig;
import io.fleetscope.loadgen.topology.SiteTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fleet.fabric.config.v1 records of a RoCE site: one per node and rail (device mlx5_R, port 1,
 * interface ethR), all configured alike: PFC and ECN (notification and reaction point) on the
 * site's lossless priority, trust dscp, the site's MTU, CNP DSCP 48 and the mlx5 firmware's DCQCN
 * defaults. The scenario's {@code site:} keys {@code fabric_prio} (3) and {@code fabric_mtu} (9000)
 * set the priority and MTU, so a site can run another policy consistently.
 */
public final class FabricPorts {
  public static final int DEFAULT_PRIO = 3;
  public static final int DEFAULT_MTU = 9000;

  /** The DCQCN parameters of every port, sorted by name (the seeded output must not depend on a map's order). */
  private static final Map<String, Long> DCQCN = new TreeMap<>(Map.of("rp_time_reset", 300L, "rp_ai_rate", 5L,
      "rp_hai_rate", 50L, "rp_min_dec_fac", 50L, "np_min_time_between_cnps", 0L));

  private final String cluster;
  private final int prio;
  private final int mtu;

  public FabricPorts(String cluster, Map<String, Object> siteOverrides) {
    this.cluster = cluster;
    this.prio = intOr(siteOverrides, "fabric_prio", DEFAULT_PRIO);
    this.mtu = intOr(siteOverrides, "fabric_mtu", DEFAULT_MTU);
    if (prio < 0 || prio > 7) {
      throw new IllegalArgumentException("site fabric_prio must be a priority 0..7, got " + prio);
    }
  }

  /** Every port of every node, as their agents publish them at start. */
  public List<PortConfig> all(SiteTopology site, long ts) {
    List<PortConfig> out = new ArrayList<>();
    for (SiteTopology.Node n : site.nodes()) {
      for (int rail = 0; rail < site.config().gpusPerNode(); rail++) {
        out.add(port(n.name(), rail, ts, true));
      }
    }
    return out;
  }

  /** One port's record; {@code pfcOn} false: PFC off on every priority (the rest unchanged). */
  public PortConfig port(String node, int rail, long ts, boolean pfcOn) {
    return PortConfig.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(0)
        .setSource("sysfs,mlnx_qos,debugfs").setDevice(SiteTopology.hcaDevice(rail)).setPort(1).setNetdev("eth" + rail)
        .setRail(rail).setLinkLayer("Ethernet").setMtuBytes(mtu).setTrust("dscp")
        .setPfcPrios(pfcOn ? List.of(prio) : List.of()).setEcnNpPrios(List.of(prio)).setEcnRpPrios(List.of(prio))
        .setCnpDscp(48).setDcqcn(new TreeMap<>(DCQCN))
        .build();
  }

  /**
   * Every InfiniBand port of every node as their agents publish them at start (site key
   * {@code ib_port_config: true}): all lanes up at the site's link rate.
   */
  public List<PortConfig> allInfiniband(SiteTopology site, long ts) {
    List<PortConfig> out = new ArrayList<>();
    for (SiteTopology.Node n : site.nodes()) {
      for (int rail = 0; rail < site.config().gpusPerNode(); rail++) {
        out.add(ibPort(n.name(), rail, ts, site.config().linkRateGbps(), 4));
      }
    }
    return out;
  }

  /** Whether the scenario's site publishes its InfiniBand ports' configuration ({@code ib_port_config: true}). */
  public static boolean infinibandConfig(Map<String, Object> siteOverrides) {
    return Boolean.TRUE.equals(siteOverrides.get("ib_port_config"));
  }

  /**
   * An InfiniBand port's record as the agent reads it from sysfs: {@code lanes} of the 4 up, each at
   * a quarter of the full link rate (NDR at 400 Gb/s, HDR at 200), the capability mask of the
   * captured ConnectX ports.
   */
  public PortConfig ibPort(String node, int rail, long ts, double linkRateGbps, int lanes) {
    return ibPort(node, rail, ts, linkRateGbps, lanes, IB_MTU, IB_SL2VL);
  }

  /** The InfiniBand MTU every port runs at (ibv_devinfo active_mtu and max_mtu). */
  public static final int IB_MTU = 4096;
  /** Every port's SL-to-VL table (smpquery sl2vl): SL i on VL i mod 8, a port with 8 operational VLs. */
  public static final List<Integer> IB_SL2VL = List.of(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);

  /**
   * An InfiniBand port's record with the link above and what ibv_devinfo (its active MTU; the
   * largest is {@link #IB_MTU}) and smpquery (its SL-to-VL table) report.
   */
  public PortConfig ibPort(String node, int rail, long ts, double linkRateGbps, int lanes, int activeMtu, List<Integer> sl2vl) {
    return PortConfig.newBuilder().setTs(ts).setCluster(cluster).setNode(node).setAgentSeq(0).setSource("sysfs,ibv_devinfo,smpquery")
        .setDevice(SiteTopology.hcaDevice(rail)).setPort(1).setRail(rail).setLinkLayer("InfiniBand").setDcqcn(new TreeMap<>())
        .setRateGbps(linkRateGbps * lanes / 4).setLinkWidth(lanes + "X").setLinkSpeed(linkRateGbps >= 400 ? "NDR" : "HDR")
        .setCapMask("0xa651ec48").setActiveMtu(activeMtu).setMaxMtu(IB_MTU).setSl2vl(sl2vl)
        .build();
  }

  /** The Kafka key of a port's record, as the agent writes it. */
  public static String key(PortConfig p) {
    return p.getNode() + "/" + p.getDevice() + "/" + p.getPort();
  }

  private static int intOr(Map<String, Object> o, String k, int d) {
    Object v = o.get(k);
    return v == null ? d : ((Number) v).intValue();
  }
}
