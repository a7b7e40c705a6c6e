package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.config.CommandConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code nvidia-smi --query-gpu=FIELDS --format=csv} and parses it. */
public final class NvidiaSmiCsvCollector implements Collector {
  /** {@code nvidia_smi} section. {@code {fields}} in the command is replaced by the comma-joined {@code fields}. */
  public static final class Config extends CommandConfig {
    public List<String> fields = new ArrayList<>(NvidiaSmiCsvParser.DEFAULT_FIELDS);

    public Config() {
      command = new ArrayList<>(List.of("nvidia-smi", "--query-gpu={fields}", "--format=csv"));
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (!fields.contains("index")) throw new ConfigException(section + ".fields", "must include 'index' (records are keyed by GPU index)");
    }
  }

  private final List<String> command;
  private final Config config;
  private final AgentEnv env;

  public NvidiaSmiCsvCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    String joined = String.join(",", c.fields);
    this.command = c.command.stream().map(a -> a.replace("{fields}", joined)).toList();
  }

  @Override
  public String name() {
    return "nvidia_smi";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String out = env.commands().runChecked(command, config.effectiveTimeout(env.agent())).stdoutText();
    List<AgentRecord> recs = new ArrayList<>();
    for (GpuSample s : NvidiaSmiCsvParser.parse(out, ctx)) recs.add(new AgentRecord(Topics.GPU, ctx.node(), s));
    return recs;
  }
}
