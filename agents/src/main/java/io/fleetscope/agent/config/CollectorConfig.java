package io.fleetscope.agent.config;

import java.time.Duration;

/**
 * Keys every collector section has. A collector's own config class extends this and adds its keys
 * as public fields with their defaults (documented in agents/README.md).
 */
public class CollectorConfig {
  /** Run this collector; default: the collector's registered default. */
  public Boolean enabled;
  /** This collector's interval; default: the agent's {@code interval}. */
  public Duration interval;
  /** Deadline of one round (commands are killed, HTTP reads abort); default: the interval, at most 10s. */
  public Duration timeout;

  /** Checks this section's own keys; {@code section} is its name for messages (e.g. {@code gpu_xml}). */
  public void validate(String section) throws ConfigException {
    if (interval != null) Checks.positive(section + ".interval", interval);
    if (timeout != null) Checks.positive(section + ".timeout", timeout);
  }

  public Duration effectiveInterval(AgentConfig agent) {
    return interval != null ? interval : agent.interval;
  }

  public Duration effectiveTimeout(AgentConfig agent) {
    if (timeout != null) return timeout;
    Duration i = effectiveInterval(agent);
    return i.compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(10) : i;
  }
}
