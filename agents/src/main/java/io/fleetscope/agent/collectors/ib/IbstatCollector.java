package io.fleetscope.agent.collectors.ib;

import io.fleetscope.agent.config.CommandConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.core.CommandRunner;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Port state and rate from {@code ibstat} (for nodes where sysfs is not readable). */
public final class IbstatCollector implements Collector {
  /** {@code ibstat} section. */
  public static final class Config extends CommandConfig {
    /** HCA -> rail; HCAs not listed follow mlx5_N -> rail N. */
    public Map<String, Integer> rails = new LinkedHashMap<>();

    public Config() {
      command = new ArrayList<>(List.of("ibstat"));
    }
  }

  private final Config config;
  private final AgentEnv env;

  public IbstatCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "ibstat";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    CommandRunner.Result r = env.commands().run(config.command, config.effectiveTimeout(env.agent()));
    IbstatParser.Result parsed = IbstatParser.parse(r.stdoutText() + "\n" + r.stderr(), config.rails, ctx);
    if (parsed.ports().isEmpty() && (r.exitCode() != 0 || parsed.error() != null)) {
      throw new IOException("ibstat exited " + r.exitCode() + (parsed.error() != null ? ": " + parsed.error() : ""));
    }
    List<AgentRecord> out = new ArrayList<>();
    for (IbPortSample s : parsed.ports()) out.add(new AgentRecord(Topics.IB, ctx.node(), s));
    // a partial failure (ibpanic on one CA) still returns the ports read; the scheduler logs nothing
    // for it, so say it here once per round
    if (parsed.error() != null) org.slf4j.LoggerFactory.getLogger(IbstatCollector.class)
        .warn("ibstat partial failure ports={} error={}", out.size(), parsed.error());
    return out;
  }
}
