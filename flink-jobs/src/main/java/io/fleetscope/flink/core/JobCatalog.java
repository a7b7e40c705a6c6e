package io.fleetscope.flink.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every analytic job, by class name, loaded reflectively (public no-argument constructor) so that
 * jobs written in parallel join the pipeline as soon as their class exists.
 */
public final class JobCatalog {
  private static final Logger log = LoggerFactory.getLogger(JobCatalog.class);

  /** All jobs, in build order. */
  public static final List<String> CLASSES = List.of(
      "io.fleetscope.flink.rail.RailBandwidthJob",
      "io.fleetscope.flink.ecc.EccTrendJob",
      "io.fleetscope.flink.thermal.ThermalRiskJob",
      "io.fleetscope.flink.thermal.FacilityJob",
      "io.fleetscope.flink.ckpt.CheckpointSloJob",
      "io.fleetscope.flink.peer.PeerOutlierJob",
      "io.fleetscope.flink.fleet.FleetHygieneJob");

  private JobCatalog() {}

  /** Every job whose class is on the classpath; missing ones are logged once and skipped. */
  public static List<AnalyticJob> all() {
    List<AnalyticJob> out = new ArrayList<>();
    for (String c : CLASSES) {
      AnalyticJob j = load(c);
      if (j != null) {
        out.add(j);
      } else {
        log.info("analytic not available class={}", c);
      }
    }
    return out;
  }

  /** The jobs with these names (AnalyticJob.name()); an unknown name is an error. */
  public static List<AnalyticJob> select(Collection<String> names) {
    List<AnalyticJob> all = all();
    List<AnalyticJob> out = new ArrayList<>();
    for (String n : names) {
      out.add(all.stream().filter(j -> j.name().equals(n)).findFirst().orElseThrow(() ->
          new IllegalArgumentException("unknown analytic '" + n + "'; available: "
              + all.stream().map(AnalyticJob::name).toList())));
    }
    return out;
  }

  static AnalyticJob load(String className) {
    Class<?> c;
    try {
      c = Class.forName(className);
    } catch (ClassNotFoundException e) {
      return null;
    }
    try {
      return (AnalyticJob) c.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("analytic " + className + " cannot be created: " + e, e);
    }
  }
}
