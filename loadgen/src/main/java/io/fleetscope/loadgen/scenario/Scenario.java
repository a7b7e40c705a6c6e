package io.fleetscope.loadgen.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A scenario: a named list of faults over a healthy fleet, plus the run's defaults.
 *
 * @param duration default run length when the command line gives none
 * @param minNodes smallest fleet the targets need
 * @param site site overrides (keys: fabric, nodes_per_job, gpu_model)
 * @param settings simulation overrides (keys: checkpoint_interval, reorder_fraction, late_fraction, nvlink_links)
 * @param analytics analytics configuration overrides (the sections of analytics-defaults.yaml) that the
 *     scenario's site runs with, e.g. its own fabric policy; empty: the defaults
 */
public record Scenario(String name, String description, Duration duration, int minNodes, Map<String, Object> site,
    Map<String, Object> settings, List<FaultSpec> faults, Map<String, Object> analytics) {

  /** A scenario that runs the analytics with their defaults. */
  public Scenario(String name, String description, Duration duration, int minNodes, Map<String, Object> site,
      Map<String, Object> settings, List<FaultSpec> faults) {
    this(name, description, duration, minNodes, site, settings, faults, Map.of());
  }

  public static Scenario healthy() {
    return new Scenario("healthy", "a healthy fleet", Duration.ofMinutes(10), 1, Map.of(), Map.of(), List.of());
  }
}
