package io.fleetscope.agent.collectors.storage;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local NVMe health: {@code nvme smart-log /dev/<controller> -o json} for every controller under
 * {@code paths.sys}/class/nvme (or the configured list), one {@code fleet.storage.v1} record each.
 * A controller whose command fails is logged and skipped; the others are still sent.
 */
public final class NvmeCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(NvmeCollector.class);
  private static final Pattern CONTROLLER = Pattern.compile("nvme\\d+");

  /** {@code nvme} section. */
  public static final class Config extends CollectorConfig {
    /** Controllers to read (nvme0, nvme1, ...); empty: every controller in sysfs class/nvme. */
    public List<String> devices = new ArrayList<>();
    /** {@code {device}} is replaced by the controller name. */
    public List<String> command = new ArrayList<>(List.of("nvme", "smart-log", "/dev/{device}", "-o", "json"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (command.isEmpty() || command.stream().noneMatch(a -> a.contains("{device}"))) {
        throw new ConfigException(section + ".command", "must contain {device}, e.g. [nvme, smart-log, \"/dev/{device}\", -o, json]");
      }
      for (String d : devices) {
        if (d == null || !CONTROLLER.matcher(d).matches()) throw new ConfigException(section + ".devices", "entries are controller names like nvme0, got '" + d + "'");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;

  public NvmeCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "nvme";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    for (String device : config.devices.isEmpty() ? controllers(env.sysRoot()) : config.devices) {
      List<String> cmd = config.command.stream().map(a -> a.replace("{device}", device)).toList();
      try {
        String text = env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText();
        out.add(new AgentRecord(Topics.STORAGE, ctx.node(), NvmeSmartLogParser.parse(text, device, ctx)));
      } catch (IllegalArgumentException | IOException | java.util.concurrent.TimeoutException e) {
        log.warn("nvme smart-log failed device={} error={}", device, e.getMessage());
      }
    }
    return out;
  }

  /** Controller names under {@code sys}/class/nvme, sorted; none when the class is absent. */
  static List<String> controllers(Path sysRoot) throws IOException {
    Path dir = sysRoot.resolve("class/nvme");
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> CONTROLLER.matcher(n).matches()).sorted().toList();
    }
  }
}
