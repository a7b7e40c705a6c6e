package io.fleetscope.loadgen.output;

import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.BundleWriter;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A simulator scenario written as a bundle: its records (raw telemetry and the inventory and job
 * state, source {@code simulator}) and its ground-truth labels ({@code labels.jsonl}, as
 * {@link LabelsWriter} writes them), so that {@code backtest} scores scenarios and recorded incidents alike.
 */
public final class ScenarioBundle {
  private ScenarioBundle() {}

  /** Writes scenario {@code name} on {@code nodes} nodes (at least the scenario's minimum) with {@code seed} into {@code dir}. */
  public static Manifest write(String name, int nodes, long seed, Path dir) throws IOException {
    Scenario sc = ScenarioLoader.load(name);
    SimConfig cfg = SimConfig.of(Math.max(nodes, sc.minNodes()), sc, seed);
    FleetSimulator sim = new FleetSimulator(cfg);
    Instant from = Instant.ofEpochMilli(cfg.startMs());
    Instant to = from.plusMillis(cfg.durationMs()).plusSeconds(60); // the late and re-ordered records fall inside
    try (BundleWriter w = BundleWriter.create(dir, from, to, Map.of("scenario", List.of(name)), null)) {
      for (SimRecord r : sim) {
        BundleRole role = Topics.require(r.topic()).compacted() ? BundleRole.STATE : BundleRole.RAW;
        w.topic(r.topic(), role, RecordSource.SIMULATOR, keyField(r)).append(r.value());
      }
      List<GroundTruthLabel> labels = sim.labels();
      w.text("labels.jsonl", BundleRole.LABELS, labels.stream().map(l -> LabelsWriter.toJson(l) + "\n").collect(Collectors.joining()));
      return w.finish();
    }
  }

  /** The value field that equals the record key (node, device, id), or null. */
  private static String keyField(SimRecord r) {
    if (r.key() == null) {
      return null;
    }
    for (var f : r.value().getSchema().getFields()) {
      Object v = r.value().get(f.pos());
      if (v != null && r.key().equals(v.toString())) {
        return f.name();
      }
    }
    return null;
  }
}
