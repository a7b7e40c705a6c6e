package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.config.CommandConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code nvidia-smi -q -x} and parses it. */
public final class NvidiaSmiXmlCollector implements Collector {
  /** {@code nvidia_smi_xml} section. */
  public static final class Config extends CommandConfig {
    public Config() {
      command = new ArrayList<>(List.of("nvidia-smi", "-q", "-x"));
    }
  }

  private final Config config;
  private final AgentEnv env;

  public NvidiaSmiXmlCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "nvidia_smi_xml";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String xml = env.commands().runChecked(config.command, config.effectiveTimeout(env.agent())).stdoutText();
    List<AgentRecord> recs = new ArrayList<>();
    for (NvidiaSmiXmlParser.Gpu g : NvidiaSmiXmlParser.parse(xml, ctx)) recs.add(new AgentRecord(Topics.GPU, ctx.node(), g.sample()));
    return recs;
  }
}
