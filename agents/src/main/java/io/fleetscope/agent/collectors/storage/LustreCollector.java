package io.fleetscope.agent.collectors.storage;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lustre client I/O: the {@code llite} stats of every mounted Lustre file system, one
 * {@code fleet.storage.v1} record per instance. Reads {@code paths.proc}/fs/lustre/llite/<fs>/stats
 * (Lustre up to 2.x keeps them there) or, when {@code command} is set, runs it (e.g.
 * {@code [lctl, get_param, "llite.*.stats"]}, which also finds them under /sys/kernel/debug).
 */
public final class LustreCollector implements Collector {

  /** {@code lustre} section. */
  public static final class Config extends CollectorConfig {
    /** Empty: read the proc files; else the command whose output is {@code lctl get_param llite.*.stats}. */
    public List<String> command = new ArrayList<>();

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (command.stream().anyMatch(a -> a == null || a.isBlank())) throw new ConfigException(section + ".command", "must not contain empty arguments");
    }
  }

  private final Config config;
  private final AgentEnv env;

  public LustreCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "lustre";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<StorageSample> samples = config.command.isEmpty() ? fromProc(env.procRoot(), ctx)
        : LliteStatsParser.parseGetParam(env.commands().runChecked(config.command, config.effectiveTimeout(env.agent())).stdoutText(), ctx);
    return samples.stream().map(s -> new AgentRecord(Topics.STORAGE, ctx.node(), s)).toList();
  }

  static List<StorageSample> fromProc(Path procRoot, CollectContext ctx) throws java.io.IOException {
    Path dir = procRoot.resolve("fs/lustre/llite");
    if (!Files.isDirectory(dir)) return List.of();
    List<StorageSample> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path fs : s.sorted().toList()) {
        Path stats = fs.resolve("stats");
        if (Files.isReadable(stats)) {
          out.add(LliteStatsParser.parseFile(Files.readString(stats, StandardCharsets.UTF_8), fs.getFileName().toString(), ctx));
        }
      }
    }
    return out;
  }
}
