package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Extended port counters from {@code perfquery -x}, one command per configured HCA port. */
public final class PerfqueryCollector implements Collector {
  /** {@code perfquery} section. */
  public static final class Config extends CollectorConfig {
    /** Ports to query; each gets its own command. Required when enabled. */
    public List<Target> targets = new ArrayList<>();
    /** HCA -> rail; HCAs not listed follow mlx5_N -> rail N. */
    public Map<String, Integer> rails = new LinkedHashMap<>();

    /** One port: {@code {device}} and {@code {port}} in the command are replaced. */
    public static final class Target {
      public String device;
      public int port = 1;
      public List<String> command = new ArrayList<>(List.of("perfquery", "-x", "-C", "{device}", "-P", "{port}"));
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (Boolean.TRUE.equals(enabled) && targets.isEmpty()) {
        throw new ConfigException(section + ".targets", "needs at least one {device, port} when the collector is enabled");
      }
      for (int i = 0; i < targets.size(); i++) {
        Target t = targets.get(i);
        if (t.device == null || t.device.isBlank()) throw new ConfigException(section + ".targets[" + i + "].device", "is required");
        if (t.command == null || t.command.isEmpty()) throw new ConfigException(section + ".targets[" + i + "].command", "must not be empty");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;

  public PerfqueryCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "perfquery";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    for (Config.Target t : config.targets) {
      List<String> cmd = t.command.stream().map(a -> a.replace("{device}", t.device).replace("{port}", Integer.toString(t.port))).toList();
      String text = env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText();
      IbPortSample s = PerfqueryParser.parse(text, t.device, t.port, IbValues.rail(t.device, config.rails), ctx);
      if (s != null) out.add(new AgentRecord(Topics.IB, ctx.node(), s));
    }
    return out;
  }
}
