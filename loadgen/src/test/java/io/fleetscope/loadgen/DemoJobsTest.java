package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.loadgen.sim.SimRun;
import io.fleetscope.loadgen.topology.SiteTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The demo's incident can name the jobs it hits: every simulated node is owned by a job in the
 * fleet.jobs.v1 records published at the start (all its GPUs, the job id the topology gives it), and
 * each job posts checkpoints under that same id, the first completed one while the coolant fault lasts.
 */
class DemoJobsTest {

  @Test
  void everyNodeOfTheDemoIsOwnedByAJobWhoseCheckpointsCarryTheSameId() {
    FleetSimulator sim = new FleetSimulator(SimConfig.of(8, ScenarioLoader.load("demo"), 1));
    Map<String, List<GpuAllocation>> owned = new TreeMap<>();
    for (SimRecord r : sim.initialRecords()) {
      if (r.value() instanceof JobAllocations j) {
        owned.put(j.getNode(), j.getAllocations());
      }
    }
    List<SiteTopology.Node> nodes = sim.topology().nodes();
    assertThat(owned).hasSize(nodes.size());
    for (SiteTopology.Node n : nodes) {
      assertThat(owned.get(n.name())).as(n.name()).singleElement().satisfies(a -> {
        assertThat(a.getJob()).isEqualTo(n.job()).isNotBlank();
        assertThat(a.getGpus()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
      });
    }

    // the run up to the end of the coolant fault (not the whole 15 minutes)
    GroundTruthLabel fault = sim.labels().stream().filter(l -> l.alertname().equals("CoolantFlowLow")).findFirst().orElseThrow();
    List<CheckpointEvent> ckpts = new ArrayList<>();
    SimRun run = sim.run();
    while (run.hasNextTick() && run.nextTickTs() < fault.endTs()) {
      for (SimRecord r : run.advance()) {
        if (r.value() instanceof CheckpointEvent c) {
          ckpts.add(c);
        }
      }
    }
    Set<String> jobs = nodes.stream().map(SiteTopology.Node::job).collect(Collectors.toSet());
    assertThat(ckpts).extracting(CheckpointEvent::getJob).containsOnlyElementsOf(jobs);
    for (String job : jobs) {
      assertThat(ckpts).as(job).anyMatch(c -> c.getJob().equals(job) && "completed".equals(c.getStatus())
          && c.getFinishedTs() != null && c.getFinishedTs() < fault.endTs());
    }
  }
}
