package io.fleetscope.agent.collectors.storage;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * NFS client I/O: {@code paths.proc}/self/mountstats, one {@code fleet.storage.v1} record per NFS
 * mount. A node without the file (no NFS client) sends nothing.
 */
public final class NfsCollector implements Collector {

  /** {@code nfs} section: only the common keys. */
  public static final class Config extends CollectorConfig {}

  private final AgentEnv env;

  public NfsCollector(Config c, AgentEnv env) {
    this.env = env;
  }

  @Override
  public String name() {
    return "nfs";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    Path f = env.procRoot().resolve("self/mountstats");
    if (!Files.isReadable(f)) return List.of();
    return MountstatsParser.parse(Files.readString(f, StandardCharsets.UTF_8), ctx).stream()
        .map(s -> new AgentRecord(Topics.STORAGE, ctx.node(), s)).toList();
  }
}
