package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Which job owns which GPUs of this node, to fleet.jobs.v1 (keyed by node): first round, then on change. */
public final class JobsCollector implements Collector {
  /** {@code jobs} section. */
  public static final class Config extends CollectorConfig {
    /** slurm_file (prolog/epilog file) or squeue. Default slurm_file. */
    public String source = "slurm_file";
    /** The prolog/epilog file. Default /run/fleetscope/slurm-jobs. */
    public Path file = Path.of("/run/fleetscope/slurm-jobs");
    /** squeue command; {@code {node}} becomes the agent's node name. */
    public List<String> command = new ArrayList<>(List.of("squeue", "-h", "-t", "R", "-w", "{node}", "-o", "%i|%u|%P|%b"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (!source.equals("slurm_file") && !source.equals("squeue")) {
        throw new ConfigException(section + ".source", "must be slurm_file or squeue, got '" + source + "' (Kubernetes pod-resources is not implemented)");
      }
      if (source.equals("squeue") && command.isEmpty()) throw new ConfigException(section + ".command", "must not be empty");
    }
  }

  private final Config config;
  private final AgentEnv env;
  private List<GpuAllocation> last;

  public JobsCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "jobs";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<GpuAllocation> now;
    if (config.source.equals("squeue")) {
      List<String> cmd = config.command.stream().map(a -> a.replace("{node}", ctx.node())).toList();
      now = SlurmJobsParser.parseSqueue(env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText());
    } else {
      Path f = env.resolve(config.file);
      now = Files.exists(f) ? SlurmJobsParser.parseFile(Files.readString(f, StandardCharsets.UTF_8)) : List.of();
    }
    if (now.equals(last)) return List.of();
    last = now;
    JobAllocations rec = JobAllocations.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L)
        .setSource(config.source.equals("squeue") ? "squeue" : "slurm-prolog")
        .setAllocations(new ArrayList<>(now))
        .build();
    return List.of(new AgentRecord(Topics.JOBS, ctx.node(), rec));
  }
}
