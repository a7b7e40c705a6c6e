package io.fleetscope.agent.core;

import io.fleetscope.agent.config.CollectorConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every collector the agent knows, like node_exporter's registry: a name (which is also the name of
 * its YAML section), whether it runs when its section does not say {@code enabled}, its typed config
 * class and a factory. Adding a collector is one {@link #register} line in
 * {@link io.fleetscope.agent.BuiltinCollectors}.
 */
public final class CollectorRegistry {

  /** Builds a collector from its bound, validated section. */
  @FunctionalInterface
  public interface Factory<C extends CollectorConfig> {
    Collector create(C config, AgentEnv env) throws Exception;
  }

  public record Registration<C extends CollectorConfig>(
      String name, boolean enabledByDefault, Class<C> configClass, Factory<C> factory, String summary) {

    public Collector create(CollectorConfig config, AgentEnv env) throws Exception {
      return factory.create(configClass.cast(config), env);
    }

    public boolean enabled(CollectorConfig config) {
      return config.enabled != null ? config.enabled : enabledByDefault;
    }
  }

  private final Map<String, Registration<?>> byName = new LinkedHashMap<>();

  public <C extends CollectorConfig> CollectorRegistry register(
      String name, boolean enabledByDefault, Class<C> configClass, Factory<C> factory, String summary) {
    if (!name.matches("[a-z][a-z0-9_]*")) throw new IllegalArgumentException("collector name must be [a-z][a-z0-9_]*: " + name);
    if (byName.putIfAbsent(name, new Registration<>(name, enabledByDefault, configClass, factory, summary)) != null) {
      throw new IllegalArgumentException("collector registered twice: " + name);
    }
    return this;
  }

  public Registration<?> get(String name) {
    return byName.get(name);
  }

  public Map<String, Registration<?>> all() {
    return Collections.unmodifiableMap(byName);
  }
}
