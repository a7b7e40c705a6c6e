package io.fleetscope.agent;

import io.fleetscope.agent.core.CollectorRegistry;

/**
 * Every collector the agent ships, one registration line each:
 * {@code register(name, enabledByDefault, configClass, factory, summary)}. See agents/REGISTRY.md.
 */
public final class BuiltinCollectors {
  private BuiltinCollectors() {}

  public static CollectorRegistry registry() {
    CollectorRegistry r = new CollectorRegistry();
    // node collectors (agent core)
    // facility collectors
    return r;
  }
}
