package io.fleetscope.agent;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.core.CollectorRegistry;
import io.fleetscope.agent.schedule.Scheduler;
import io.fleetscope.agent.schedule.SelfMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the enabled collectors of a config. A collector whose factory fails is logged and left out. */
public final class Agent {
  private static final Logger log = LoggerFactory.getLogger(Agent.class);

  private Agent() {}

  public static List<Scheduler.Job> jobs(AgentConfig cfg, CollectorRegistry registry, AgentEnv env, SelfMetrics metrics) {
    metrics.declare("fleetscope_agent_collector_enabled", "gauge", "1 for each collector that runs, 0 for one that failed to start.");
    List<Scheduler.Job> jobs = new ArrayList<>();
    for (Map.Entry<String, CollectorConfig> e : cfg.collectors().entrySet()) {
      CollectorRegistry.Registration<?> reg = registry.get(e.getKey());
      if (!reg.enabled(e.getValue())) continue;
      String label = SelfMetrics.labels("collector", reg.name());
      try {
        Collector c = reg.create(e.getValue(), env);
        jobs.add(new Scheduler.Job(c, e.getValue().effectiveInterval(cfg), e.getValue().effectiveTimeout(cfg)));
        metrics.set("fleetscope_agent_collector_enabled", label, 1);
        log.info("collector enabled collector={} interval={} timeout={}", reg.name(),
            e.getValue().effectiveInterval(cfg).toMillis() + "ms", e.getValue().effectiveTimeout(cfg).toMillis() + "ms");
      } catch (Exception ex) {
        metrics.set("fleetscope_agent_collector_enabled", label, 0);
        log.error("collector failed to start collector={} error={}", reg.name(), String.valueOf(ex.getMessage()).replace('\n', ' '));
      }
    }
    return jobs;
  }
}
