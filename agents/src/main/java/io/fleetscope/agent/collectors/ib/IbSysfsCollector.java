package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * InfiniBand / RoCE port counters from sysfs ({@code paths.sys}/class/infiniband), with PFC pause
 * counters from {@code ethtool -S} for Ethernet (RoCE) ports when enabled.
 */
public final class IbSysfsCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(IbSysfsCollector.class);

  /** {@code ib} section. */
  public static final class Config extends CollectorConfig {
    /** HCA -> rail; HCAs not listed follow mlx5_N -> rail N. */
    public Map<String, Integer> rails = new LinkedHashMap<>();
    /** Only these HCAs (empty: all). */
    public List<String> devices = new ArrayList<>();
    public Ethtool ethtool = new Ethtool();

    /** {@code ib.ethtool}: PFC pause counters of RoCE ports. */
    public static final class Ethtool {
      /** Run ethtool for Ethernet-link-layer ports. Default false. */
      public boolean enabled = false;
      /** {@code {netdev}} is replaced by the port's interface. */
      public List<String> command = new ArrayList<>(List.of("ethtool", "-S", "{netdev}"));
      /** HCA -> netdev; default: the HCA's sysfs device/net/ entry. */
      public Map<String, String> netdevs = new LinkedHashMap<>();
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      for (var e : rails.entrySet()) {
        if (e.getValue() == null || e.getValue() < 0) throw new ConfigException(section + ".rails." + e.getKey(), "must be a rail number >= 0");
      }
      if (ethtool.enabled && (ethtool.command.isEmpty() || ethtool.command.stream().noneMatch(a -> a.contains("{netdev}")))) {
        throw new ConfigException(section + ".ethtool.command", "must contain {netdev}, e.g. [ethtool, -S, \"{netdev}\"]");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final Path sysRoot;
  /**
   * The port directories and, per port, the counter files it has; listed again every {@link
   * #RESCAN_ROUNDS} rounds (a new HCA shows within that many rounds), and at once after a round in
   * which a listed port had none of its files (the HCA went away).
   */
  private List<SysfsReader.PortDir> ports;
  private final Map<Path, List<String>> present = new java.util.HashMap<>();
  static final int RESCAN_ROUNDS = 300;
  private int round;

  public IbSysfsCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    this.sysRoot = env.sysRoot();
  }

  @Override
  public String name() {
    return "ib";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    if (round++ % RESCAN_ROUNDS == 0 || ports == null) {
      present.clear();
      ports = SysfsReader.ports(sysRoot);
    }
    boolean vanished = false;
    for (SysfsReader.PortDir p : ports) {
      if (!config.devices.isEmpty() && !config.devices.contains(p.device())) continue;
      List<String> names = present.computeIfAbsent(p.dir(), SysfsReader::presentFiles);
      Map<String, String> files = SysfsReader.readPort(p.dir(), names);
      if (files.isEmpty() && !names.isEmpty()) {
        log.warn("ib port gone, relisting ports device={} port={} dir={}", p.device(), p.port(), p.dir());
        vanished = true;
        continue;
      }
      IbPortSample s = IbSysfsParser.parse(p.device(), p.port(), files, IbValues.rail(p.device(), config.rails), ctx);
      if (config.ethtool.enabled && "Ethernet".equals(s.getLinkLayer())) addPause(s, p.device());
      out.add(new AgentRecord(Topics.IB, ctx.node(), s));
    }
    if (vanished) ports = null;
    return out;
  }

  private void addPause(IbPortSample s, String device) {
    String netdev = config.ethtool.netdevs.get(device);
    try {
      if (netdev == null) {
        List<String> n = SysfsReader.netdevs(sysRoot, device);
        if (n.isEmpty()) return;
        netdev = n.get(0);
      }
      String dev = netdev;
      List<String> cmd = config.ethtool.command.stream().map(a -> a.replace("{netdev}", dev)).toList();
      String text = env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText();
      EthtoolParser.Pause pause = EthtoolParser.pause(EthtoolParser.parse(text));
      s.setPfcPauseRx(pause.rx());
      s.setPfcPauseTx(pause.tx());
    } catch (Exception e) {
      log.warn("ethtool failed device={} netdev={} error={}", device, netdev, e.getMessage());
    }
  }
}
