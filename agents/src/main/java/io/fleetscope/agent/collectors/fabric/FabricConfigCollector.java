package io.fleetscope.agent.collectors.fabric;

import io.fleetscope.agent.collectors.ib.IbValues;
import io.fleetscope.agent.collectors.ib.SysfsReader;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lossless-fabric configuration of every RoCE port (RDMA device port with link layer Ethernet)
 * to fleet.fabric.config.v1, keyed {@code node/device/port}: MTU and the ECN notification/reaction
 * points per priority from sysfs ({@code class/net/<if>/mtu}, {@code class/net/<if>/ecn/}), PFC
 * priorities and trust state from {@code mlnx_qos -i <if>}, DCQCN parameters from the mlx5 debugfs
 * ({@code kernel/debug/mlx5/<pci>/cc_params/}). A port's record is sent in the first round and then
 * only when something in it changes. A source that is missing leaves its fields null (unknown); a
 * source that fails is logged once per port and reason.
 *
 * <p>InfiniBand ports (link layer InfiniBand) get a record too, with what the kernel exposes of their
 * configuration: the link's rate, active width and speed ({@code ports/<p>/rate}) and the capability
 * mask ({@code ports/<p>/cap_mask}); their RoCE fields stay null. A port that trained at fewer lanes
 * or a lower speed than its rail's peers is then found by the analytics before its traffic is.
 *
 * <p>Every port also gets its active and largest MTU from {@code ibv_devinfo} (one run per round for
 * all devices), and every InfiniBand port its SL-to-VL table from {@code smpquery sl2vl} (one run
 * per port); sysfs has neither for InfiniBand ports. Either command may be absent on a node: the
 * fields stay null and one line is logged per port and reason.
 */
public final class FabricConfigCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(FabricConfigCollector.class);

  /** {@code fabric} section. */
  public static final class Config extends CollectorConfig {
    /** HCA -> rail; HCAs not listed follow mlx5_N -> rail N (as in the {@code ib} section). */
    public Map<String, Integer> rails = new LinkedHashMap<>();
    /** Only these RDMA devices (empty: all). */
    public List<String> devices = new ArrayList<>();
    /** {@code {netdev}} is replaced by the port's interface; [] to not run mlnx_qos (PFC and trust stay unknown). */
    public List<String> mlnxQosCommand = new ArrayList<>(List.of("mlnx_qos", "-i", "{netdev}"));
    /** Read the mlx5 DCQCN parameters from debugfs. Default true. */
    public boolean debugfs = true;
    /** RDMA device -> PCI address for debugfs; default: where the device's sysfs {@code device} link points. */
    public Map<String, String> pci = new LinkedHashMap<>();
    /** RDMA device -> network interface; default: the device's sysfs {@code device/net/} entry. */
    public Map<String, String> netdevs = new LinkedHashMap<>();
    /** Run once a round for every port's active and largest MTU; [] to not run it (the MTUs stay unknown). */
    public List<String> ibvDevinfoCommand = new ArrayList<>(List.of("ibv_devinfo"));
    /**
     * Run per InfiniBand port for its SL-to-VL table, {@code {device}} and {@code {port}} replaced;
     * the default asks the local port itself (directed route 0). [] to not run it (the table stays unknown).
     */
    public List<String> sl2vlCommand = new ArrayList<>(List.of("smpquery", "-C", "{device}", "-P", "{port}", "-D", "sl2vl", "0"));

    public Config() {
      // configuration changes seldom: read it once a minute, not every sample
      interval = Duration.ofMinutes(1);
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      for (var e : rails.entrySet()) {
        if (e.getValue() == null || e.getValue() < 0) throw new ConfigException(section + ".rails." + e.getKey(), "must be a rail number >= 0");
      }
      if (!mlnxQosCommand.isEmpty() && mlnxQosCommand.stream().noneMatch(a -> a.contains("{netdev}"))) {
        throw new ConfigException(section + ".mlnx_qos_command", "must contain {netdev}, e.g. [mlnx_qos, -i, \"{netdev}\"]");
      }
      if (!sl2vlCommand.isEmpty() && (sl2vlCommand.stream().noneMatch(a -> a.contains("{device}"))
          || sl2vlCommand.stream().noneMatch(a -> a.contains("{port}")))) {
        throw new ConfigException(section + ".sl2vl_command",
            "must contain {device} and {port}, e.g. [smpquery, -C, \"{device}\", -P, \"{port}\", -D, sl2vl, \"0\"]");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final Path sysRoot;
  private final Map<String, PortConfig> last = new HashMap<>();
  /** port key -> the last failure logged for it, so a failing source is one line, not one per round. */
  private final Map<String, String> logged = new HashMap<>();

  public FabricConfigCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    this.sysRoot = env.sysRoot();
  }

  @Override
  public String name() {
    return "fabric";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    Map<String, IbvDevinfoParser.PortMtu> mtus = mtus(ctx);
    for (SysfsReader.PortDir p : SysfsReader.ports(sysRoot)) {
      if (!config.devices.isEmpty() && !config.devices.contains(p.device())) continue;
      String linkLayer = SysfsReader.readPort(p.dir(), List.of("link_layer")).getOrDefault("link_layer", "").strip();
      if ("InfiniBand".equals(linkLayer)) {
        AgentRecord ib = infiniband(ctx, p, mtus);
        if (ib != null) out.add(ib);
        continue;
      }
      if (!"Ethernet".equals(linkLayer)) continue;
      String netdev = netdev(p.device());
      if (netdev == null) continue;
      PortConfigBuilder.Port port = new PortConfigBuilder.Port(p.device(), p.port(), netdev,
          IbValues.rail(p.device(), config.rails), linkLayer);
      String key = PortConfigBuilder.key(ctx.node(), port);
      PortConfig rec = PortConfigBuilder.withVerbs(read(ctx, port, key), mtus.get(p.device() + "/" + p.port()), null);
      if (PortConfigBuilder.sameConfig(rec, last.get(key))) continue;
      last.put(key, PortConfig.newBuilder(rec).build());
      out.add(new AgentRecord(Topics.FABRIC_CONFIG, key, rec));
    }
    return out;
  }

  /** An InfiniBand port's record when it is new or changed, else null. */
  private AgentRecord infiniband(CollectContext ctx, SysfsReader.PortDir p, Map<String, IbvDevinfoParser.PortMtu> mtus)
      throws java.io.IOException {
    List<String> nets = SysfsReader.netdevs(sysRoot, p.device());
    PortConfigBuilder.Port port = new PortConfigBuilder.Port(p.device(), p.port(), config.netdevs.getOrDefault(p.device(),
        nets.isEmpty() ? null : nets.get(0)), IbValues.rail(p.device(), config.rails), "InfiniBand");
    String key = PortConfigBuilder.key(ctx.node(), port);
    Map<String, String> files = SysfsReader.readPort(p.dir(), List.of("rate", "cap_mask"));
    IbLinkParser.Link link = null;
    if (files.containsKey("rate")) {
      try {
        link = IbLinkParser.parse(files.get("rate"));
      } catch (IllegalArgumentException e) {
        once(key, "rate", e.getMessage());
      }
    }
    String capMask = null;
    if (files.containsKey("cap_mask")) {
      try {
        capMask = IbLinkParser.capMask(files.get("cap_mask"));
      } catch (IllegalArgumentException e) {
        once(key, "cap_mask", e.getMessage());
      }
    }
    PortConfig rec = PortConfigBuilder.withVerbs(PortConfigBuilder.infiniband(ctx, port, link, capMask),
        mtus.get(p.device() + "/" + p.port()), sl2vl(key, p));
    if (PortConfigBuilder.sameConfig(rec, last.get(key))) return null;
    last.put(key, PortConfig.newBuilder(rec).build());
    return new AgentRecord(Topics.FABRIC_CONFIG, key, rec);
  }

  private PortConfig read(CollectContext ctx, PortConfigBuilder.Port port, String key) {
    String mtu = FabricFiles.mtu(sysRoot, port.netdev());
    EcnSysfsParser.Ecn ecn = null;
    try {
      ecn = EcnSysfsParser.parse(FabricFiles.ecn(sysRoot, port.netdev()));
    } catch (IllegalArgumentException e) {
      once(key, "ecn", e.getMessage());
    }
    MlnxQosParser.Qos qos = null;
    if (!config.mlnxQosCommand.isEmpty()) {
      List<String> cmd = config.mlnxQosCommand.stream().map(a -> a.replace("{netdev}", port.netdev())).toList();
      try {
        qos = MlnxQosParser.parse(env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText());
      } catch (Exception e) {
        once(key, "mlnx_qos", e.getMessage());
      }
    }
    Map<String, Long> dcqcn = Map.of();
    if (config.debugfs) {
      String pci = config.pci.getOrDefault(port.device(), FabricFiles.pci(sysRoot, port.device()));
      try {
        dcqcn = CcParamsParser.parse(FabricFiles.ccParams(sysRoot, pci));
      } catch (IllegalArgumentException e) {
        once(key, "debugfs", e.getMessage());
      }
    }
    try {
      return PortConfigBuilder.build(ctx, port, mtu, qos, ecn, dcqcn);
    } catch (IllegalArgumentException e) {
      once(key, "mtu", e.getMessage());
      return PortConfigBuilder.build(ctx, port, null, qos, ecn, dcqcn);
    }
  }

  /** Every port's MTUs from one ibv_devinfo run, keyed device/port; empty when not configured or it failed. */
  private Map<String, IbvDevinfoParser.PortMtu> mtus(CollectContext ctx) {
    if (config.ibvDevinfoCommand.isEmpty()) return Map.of();
    try {
      return IbvDevinfoParser.parse(env.commands().runChecked(config.ibvDevinfoCommand, config.effectiveTimeout(env.agent())).stdoutText());
    } catch (Exception e) {
      once(ctx.node() + "/*", "ibv_devinfo", e.getMessage());
      return Map.of();
    }
  }

  /** An InfiniBand port's SL-to-VL table, or null when not configured or the command failed. */
  private List<Integer> sl2vl(String key, SysfsReader.PortDir p) {
    if (config.sl2vlCommand.isEmpty()) return null;
    List<String> cmd = config.sl2vlCommand.stream()
        .map(a -> a.replace("{device}", p.device()).replace("{port}", String.valueOf(p.port()))).toList();
    try {
      return Sl2vlParser.parse(env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText());
    } catch (Exception e) {
      once(key, "smpquery", e.getMessage());
      return null;
    }
  }

  private String netdev(String device) throws java.io.IOException {
    String n = config.netdevs.get(device);
    if (n != null) return n;
    List<String> all = SysfsReader.netdevs(sysRoot, device);
    return all.isEmpty() ? null : all.get(0);
  }

  private void once(String key, String source, String error) {
    String what = source + ": " + error;
    if (what.equals(logged.put(key + "|" + source, what))) return;
    log.warn("fabric config source failed port={} source={} error=\"{}\"", key, source, error);
  }

}
