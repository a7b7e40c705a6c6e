package io.fleetscope.agent.collectors.nvlink;

import io.fleetscope.agent.config.Checks;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code nvidia-smi nvlink -s}, {@code -e} and {@code -gt d} and publishes one
 * {@code fleet.nvlink.v1} record per GPU and link. The state command is required (it says which
 * links exist); the error and throughput commands may be switched off with an empty list.
 */
public final class NvidiaSmiNvlinkCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(NvidiaSmiNvlinkCollector.class);

  /** {@code nvlink} section. */
  public static final class Config extends CollectorConfig {
    /** Link state and speed. */
    public List<String> statusCommand = new ArrayList<>(List.of("nvidia-smi", "nvlink", "-s"));
    /** Replay, recovery and CRC error counters; empty: not collected. */
    public List<String> errorsCommand = new ArrayList<>(List.of("nvidia-smi", "nvlink", "-e"));
    /** Data payload throughput counters (KiB); empty: not collected. */
    public List<String> throughputCommand = new ArrayList<>(List.of("nvidia-smi", "nvlink", "-gt", "d"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      Checks.command(section + ".status_command", statusCommand);
      if (!errorsCommand.isEmpty()) Checks.command(section + ".errors_command", errorsCommand);
      if (!throughputCommand.isEmpty()) Checks.command(section + ".throughput_command", throughputCommand);
    }
  }

  private final Config config;
  private final AgentEnv env;
  /** GPUs last reported in MIG mode, so the log line comes once per change, not every round. */
  private List<Integer> lastMigGpus = List.of();

  public NvidiaSmiNvlinkCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "nvlink";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    var timeout = config.effectiveTimeout(env.agent());
    String status = env.commands().runChecked(config.statusCommand, timeout).stdoutText();
    String errors = config.errorsCommand.isEmpty() ? null : env.commands().runChecked(config.errorsCommand, timeout).stdoutText();
    String throughput = config.throughputCommand.isEmpty() ? null
        : env.commands().runChecked(config.throughputCommand, timeout).stdoutText();
    NvidiaSmiNvlinkParser.Result r = NvidiaSmiNvlinkParser.parse(status, errors, throughput, ctx);
    if (!r.migModeGpus().equals(lastMigGpus)) {
      if (!r.migModeGpus().isEmpty()) {
        log.info("nvlink mig_mode_gpus={} reason=\"nvidia-smi reports no NVLink for GPUs in MIG mode\"", r.migModeGpus());
      }
      lastMigGpus = r.migModeGpus();
    }
    List<AgentRecord> recs = new ArrayList<>(r.samples().size());
    for (NvlinkSample s : r.samples()) recs.add(new AgentRecord(Topics.NVLINK, ctx.node(), s));
    return recs;
  }
}
