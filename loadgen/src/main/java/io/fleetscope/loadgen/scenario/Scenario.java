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
 */
public record Scenario(String name, String description, Duration duration, int minNodes, Map<String, Object> site,
    Map<String, Object> settings, List<FaultSpec> faults) {

  public static Scenario healthy() {
    return new Scenario("healthy", "a healthy fleet", Duration.ofMinutes(10), 1, Map.of(), Map.of(), List.of());
  }
}
