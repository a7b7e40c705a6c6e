package io.fleetscope.flink;

import io.fleetscope.flink.ckpt.CheckpointSloAnalytic;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.ecc.EccTrendAnalytic;
import io.fleetscope.flink.fabric.FabricDriftAnalytic;
import io.fleetscope.flink.fleet.FleetHygieneAnalytic;
import io.fleetscope.flink.nvlink.NvlinkAnalytic;
import io.fleetscope.flink.peer.PeerOutlierAnalytic;
import io.fleetscope.flink.rail.RailBandwidthAnalytic;
import io.fleetscope.flink.storage.StorageTierAnalytic;
import io.fleetscope.flink.thermal.FacilityAnalytic;
import io.fleetscope.flink.thermal.ThermalRiskAnalytic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Every analytic of the pipeline, in build order. The order is part of the deployed graph: the
 * analytics that share a node stage keep their state there by position, so a new analytic goes at
 * the end.
 */
public final class AnalyticCatalog {
  private AnalyticCatalog() {}

  /** A new instance of every analytic, in build order. */
  public static List<Analytic> all() {
    return List.of(
        new RailBandwidthAnalytic(),
        new EccTrendAnalytic(),
        new ThermalRiskAnalytic(),
        new FacilityAnalytic(),
        new CheckpointSloAnalytic(),
        new PeerOutlierAnalytic(),
        new FleetHygieneAnalytic(),
        new StorageTierAnalytic(),
        new FabricDriftAnalytic(),
        new NvlinkAnalytic());
  }

  /** The names of every analytic ({@link Analytic#name()}), in build order. */
  public static List<String> names() {
    return all().stream().map(Analytic::name).toList();
  }

  /**
   * The analytics with these names, in the order given.
   *
   * @throws IllegalArgumentException for a name no analytic has, naming the known ones
   */
  public static List<Analytic> select(Collection<String> names) {
    List<Analytic> all = all();
    List<Analytic> out = new ArrayList<>();
    for (String n : names) {
      out.add(all.stream().filter(a -> a.name().equals(n)).findFirst().orElseThrow(() ->
          new IllegalArgumentException("unknown analytic '" + n + "'; available: " + names())));
    }
    return out;
  }
}
