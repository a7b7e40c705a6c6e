package io.fleetscope.agent.collectors.xid;

import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvParser;
import io.fleetscope.agent.collectors.gpu.PciBusId;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
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

/** XID events from the kernel log: followed from a file, or the new lines a command prints each round. */
public final class XidCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(XidCollector.class);

  /** {@code xid} section. Exactly one of {@code file} or {@code command}. */
  public static final class Config extends CollectorConfig {
    /** Kernel log file to follow (rotation handled). Default /var/log/kern.log unless {@code command} is set. */
    public Path file;
    /** Command printing only new kernel lines each run, e.g. journalctl -k -o cat --cursor-file=F. */
    public List<String> command;
    /** Where to start following {@code file}: end (skip history) or beginning. Default end. */
    public String startAt = "end";
    /** PCI address -> GPU index, e.g. {"0000:3b:00": 0}; merged over what {@code pci_map_command} reports. */
    public Map<String, Integer> pciToGpu = new LinkedHashMap<>();
    /** Command printing {@code index, pci.bus_id} CSV, run once at start; [] to disable. */
    public List<String> pciMapCommand = new ArrayList<>(List.of("nvidia-smi", "--query-gpu=index,pci.bus_id", "--format=csv"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (file != null && command != null) throw new ConfigException(section, "set either 'file' or 'command', not both");
      if (command != null && command.isEmpty()) throw new ConfigException(section + ".command", "must not be empty");
      if (!startAt.equals("end") && !startAt.equals("beginning")) {
        throw new ConfigException(section + ".start_at", "must be 'end' or 'beginning', got '" + startAt + "'");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final Duration timeout;
  private final Map<String, Integer> pciToGpu = new HashMap<>();
  private LogFollower follower;

  public XidCollector(Config c, AgentEnv env) throws Exception {
    this.config = c;
    this.env = env;
    this.timeout = c.effectiveTimeout(env.agent());
    if (c.pciMapCommand != null && !c.pciMapCommand.isEmpty()) {
      try {
        String csv = env.commands().runChecked(c.pciMapCommand, timeout).stdoutText();
        for (GpuSample s : NvidiaSmiCsvParser.parse(csv, new CollectContext(0, "", ""))) {
          if (s.getPciBusId() != null) pciToGpu.put(PciBusId.normalize(s.getPciBusId()), s.getGpu());
        }
      } catch (Exception e) {
        log.warn("xid pci map unavailable command={} error={}", c.pciMapCommand.get(0), e.getMessage());
      }
    }
    c.pciToGpu.forEach((k, v) -> pciToGpu.put(PciBusId.normalize(k), v));
    if (c.command == null) {
      Path f = env.resolve(c.file != null ? c.file : Path.of("/var/log/kern.log"));
      follower = new LogFollower(f, c.startAt.equals("end"));
    }
  }

  @Override
  public String name() {
    return "xid";
  }

  /** The PCI -> GPU map in use (for tests and the startup log). */
  public Map<String, Integer> pciToGpu() {
    return pciToGpu;
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String text = follower != null ? follower.readNew() : env.commands().runChecked(config.command, timeout).stdoutText();
    List<AgentRecord> out = new ArrayList<>();
    for (GpuXid x : XidLogParser.parse(text, pciToGpu, ctx)) out.add(new AgentRecord(Topics.GPU_XID, ctx.node(), x));
    return out;
  }
}
