package io.fleetscope.agent.core;

import io.fleetscope.agent.config.AgentConfig;
import java.nio.file.Path;

/**
 * What a collector factory may use besides its own section: the agent config (identity, roots),
 * and the shared command runner.
 */
public record AgentEnv(AgentConfig agent, CommandRunner commands) {
  public AgentEnv(AgentConfig agent) {
    this(agent, new CommandRunner(agent.baseDir));
  }

  public Path sysRoot() {
    return agent.sysRoot();
  }

  public Path procRoot() {
    return agent.procRoot();
  }

  /** Resolves a path from the config file against the config file's directory. */
  public Path resolve(Path p) {
    return agent.resolve(p);
  }
}
