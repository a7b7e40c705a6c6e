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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runs {@code dcgmi dmon -e ... -c 1} and parses it (format as documented; see {@link DcgmiDmonParser}). */
public final class DcgmiDmonCollector implements Collector {
  /** {@code dcgmi} section. */
  public static final class Config extends CommandConfig {
    /** Extra or overriding column tag -> GpuSample field (the numeric fields below; energy_mj as a whole number). */
    public Map<String, String> tags = new LinkedHashMap<>();

    public Config() {
      // 150 temp, 140 memory temp, 155 power, 100 SM clock, 101 memory clock, 203 GPU util, 204 mem copy util, 252 FB used,
      // 250 FB total, 156 total energy consumption (mJ since driver load: the interval's mean power downstream)
      command = new ArrayList<>(List.of("dcgmi", "dmon", "-e", "150,140,155,100,101,203,204,252,250,156", "-c", "1"));
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      Set<String> ok = Set.of("temp_c", "mem_temp_c", "power_w", "power_limit_w", "sm_clock_mhz", "mem_clock_mhz", "util_pct",
          "mem_util_pct", "mem_used_mib", "mem_total_mib", "energy_mj");
      for (var e : tags.entrySet()) {
        if (!ok.contains(e.getValue())) throw new ConfigException(section + ".tags." + e.getKey(), "must name one of " + new java.util.TreeSet<>(ok));
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final Map<String, String> tags;

  public DcgmiDmonCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    this.tags = new HashMap<>(DcgmiDmonParser.DEFAULT_TAGS);
    this.tags.putAll(c.tags);
  }

  @Override
  public String name() {
    return "dcgmi";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String out = env.commands().runChecked(config.command, config.effectiveTimeout(env.agent())).stdoutText();
    List<AgentRecord> recs = new ArrayList<>();
    for (GpuSample s : DcgmiDmonParser.parse(out, tags, ctx)) recs.add(new AgentRecord(Topics.GPU, ctx.node(), s));
    return recs;
  }
}
