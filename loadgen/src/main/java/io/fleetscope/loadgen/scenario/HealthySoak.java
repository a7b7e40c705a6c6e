package io.fleetscope.loadgen.scenario;

import io.fleetscope.loadgen.sim.Rng;
import io.fleetscope.loadgen.topology.SiteConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The healthy soak: a scenario of what a healthy fleet does over a long run, generated for a fleet
 * size, a duration and a seed. Nothing in it is a fault, so nothing may fire. It holds:
 *
 * <ul>
 *   <li>jobs stopping and starting again: each job (8 nodes) stops about every {@link #JOB_CYCLE}
 *       (+- 15 min), staggered across jobs, and stays idle 10-40 min ({@code job_stop});
 *   <li>the time of day on every coolant loop: supply up to +1.5 C and up to +2 kW of other load per
 *       rack at 15:00 UTC ({@code diurnal_load});
 *   <li>driver reloads that reset a node's counters, {@link #DRIVER_RELOADS_PER_DAY} per 1,000 GPUs
 *       and day ({@code counter_reset});
 *   <li>agent restarts with a 10-60 s gap in a node's samples, {@link #AGENT_RESTARTS_PER_DAY}
 *       ({@code agent_restart});
 *   <li>one-sample sensor glitches, {@link #TEMP_SPIKES_PER_DAY} temperature spikes of +10..20 C and
 *       {@link #ZERO_READINGS_PER_DAY} zero readings ({@code sensor_glitch});
 *   <li>the simulator's own late (0.05%, 60-180 s) and out-of-order (0.2%) records and rare benign
 *       blips, on by default.
 * </ul>
 *
 * <p>Counts scale with GPUs and duration; each kind happens at least once, so a short soak has all.
 */
public final class HealthySoak {
  public static final String NAME = "healthy-soak";
  /** Default fleet: 125 nodes of 8 GPUs. */
  public static final int DEFAULT_NODES = 125;
  /** How often each job stops (and starts again). */
  public static final Duration JOB_CYCLE = Duration.ofMinutes(150);
  public static final double DRIVER_RELOADS_PER_DAY = 8;
  public static final double AGENT_RESTARTS_PER_DAY = 12;
  public static final double TEMP_SPIKES_PER_DAY = 24;
  public static final double ZERO_READINGS_PER_DAY = 24;

  private HealthySoak() {}

  /** The soak scenario for {@code nodes} nodes (default site shape) over {@code duration}. */
  public static Scenario of(int nodes, Duration duration, long seed) {
    SiteConfig site = SiteConfig.defaults(nodes);
    Rng rng = Rng.of(seed, "soak");
    long ms = duration.toMillis();
    int jobs = (nodes + site.nodesPerJob() - 1) / site.nodesPerJob();
    int racks = (nodes + site.nodesPerRack() - 1) / site.nodesPerRack();
    int loops = (racks + site.racksPerLoop() - 1) / site.racksPerLoop();
    double scale = nodes * site.gpusPerNode() / 1000.0 * ms / 86_400_000.0;
    List<FaultSpec> faults = new ArrayList<>();
    for (int l = 0; l < loops; l++) {
      faults.add(spec("diurnal-" + l, FaultType.DIURNAL_LOAD, Map.of("loop", l), 0, null, Map.of()));
    }
    long cycle = JOB_CYCLE.toMillis();
    for (int j = 0; j < jobs; j++) {
      int k = 0;
      for (long at = cycle * (j + 1) / (jobs + 1); at < ms; at += cycle, k++) {
        long stop = Math.max(60_000, at + (long) rng.uniform(-15, 15) * 60_000);
        long idle = (long) rng.uniform(10, 40) * 60_000;
        if (stop < ms) {
          faults.add(spec("job-" + j + "-stop-" + k, FaultType.JOB_STOP, Map.of("job", j), stop,
              Math.min(ms, stop + idle), Map.of()));
        }
      }
    }
    for (int i = 0; i < count(DRIVER_RELOADS_PER_DAY, scale); i++) {
      faults.add(spec("driver-reload-" + i, FaultType.COUNTER_RESET, Map.of("node", rng.nextInt(nodes)),
          at(rng, ms), null, Map.of()));
    }
    for (int i = 0; i < count(AGENT_RESTARTS_PER_DAY, scale); i++) {
      faults.add(spec("agent-restart-" + i, FaultType.AGENT_RESTART, Map.of("node", rng.nextInt(nodes)), at(rng, ms),
          null, Map.of("gap", (10 + rng.nextInt(51)) + "s")));
    }
    for (int i = 0; i < count(TEMP_SPIKES_PER_DAY, scale); i++) {
      faults.add(spec("temp-spike-" + i, FaultType.SENSOR_GLITCH, gpu(rng, nodes, site), at(rng, ms), null,
          Map.of("kind", "temp_spike", "offset_c", 10 + rng.nextInt(11))));
    }
    for (int i = 0; i < count(ZERO_READINGS_PER_DAY, scale); i++) {
      faults.add(spec("zero-reading-" + i, FaultType.SENSOR_GLITCH, gpu(rng, nodes, site), at(rng, ms), null,
          Map.of("kind", "zero")));
    }
    return new Scenario(NAME, "A healthy fleet over " + duration.toMinutes() + " min: jobs stopping and starting,"
        + " the time of day, driver reloads, agent restarts, sensor glitches, late records. Nothing may fire.",
        duration, nodes, Map.of(), Map.of(), List.copyOf(faults));
  }

  private static int count(double perDay, double scale) {
    return Math.max(1, (int) Math.round(perDay * scale));
  }

  /** A time away from the run's first and last two minutes. */
  private static long at(Rng rng, long ms) {
    long margin = Math.min(120_000, ms / 4);
    return margin + (long) (rng.uniform() * (ms - 2 * margin)) / 1000 * 1000;
  }

  private static Map<String, Object> gpu(Rng rng, int nodes, SiteConfig site) {
    return Map.of("node", rng.nextInt(nodes), "gpu", rng.nextInt(site.gpusPerNode()));
  }

  private static FaultSpec spec(String id, FaultType type, Map<String, Object> target, long startMs, Long endMs,
      Map<String, Object> params) {
    return new FaultSpec(id, type, new LinkedHashMap<>(target), Duration.ofMillis(startMs),
        endMs == null ? null : Duration.ofMillis(endMs), new LinkedHashMap<>(params), null, null);
  }
}
