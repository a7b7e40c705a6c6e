package io.fleetscope.loadgen;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** A whole run of one built-in scenario, kept in memory, with helpers to look at it. */
final class ScenarioRun {
  final FleetSimulator sim;
  final List<SimRecord> records;

  ScenarioRun(String scenario, int nodes, long seed) {
    this(ScenarioLoader.load(scenario), nodes, seed);
  }

  ScenarioRun(Scenario scenario, int nodes, long seed) {
    this.sim = new FleetSimulator(SimConfig.of(nodes, scenario, seed));
    this.records = sim.stream().collect(Collectors.toList());
  }

  /** A scenario written inline, as in a scenario file. */
  static Scenario yaml(String text) {
    return ScenarioLoader.parse(text, "inline.yaml");
  }

  long start() {
    return sim.config().startMs();
  }

  GroundTruthLabel label(String alertname) {
    return sim.labels().stream().filter(l -> l.alertname().equals(alertname)).findFirst().orElseThrow();
  }

  List<GpuSample> gpu(Predicate<GpuSample> p) {
    return records.stream().filter(r -> r.value() instanceof GpuSample).map(r -> (GpuSample) r.value()).filter(p)
        .collect(Collectors.toList());
  }

  List<IbPortSample> ib(Predicate<IbPortSample> p) {
    return records.stream().filter(r -> r.value() instanceof IbPortSample).map(r -> (IbPortSample) r.value())
        .filter(p).collect(Collectors.toList());
  }

  <T> List<T> of(Class<T> c) {
    return records.stream().map(SimRecord::value).filter(c::isInstance).map(c::cast).collect(Collectors.toList());
  }

  static boolean in(long ts, GroundTruthLabel l) {
    return ts >= l.startTs() && ts < l.endTs();
  }
}
