package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.topology.SiteTopology;
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
    ScenarioRun run = new ScenarioRun("demo", 8, 1);
    Map<String, List<GpuAllocation>> owned = new TreeMap<>();
    for (var r : run.sim.initialRecords()) {
      if (r.value() instanceof JobAllocations j) {
        owned.put(j.getNode(), j.getAllocations());
      }
    }
    List<SiteTopology.Node> nodes = run.sim.topology().nodes();
    assertThat(owned).hasSize(nodes.size());
    for (SiteTopology.Node n : nodes) {
      assertThat(owned.get(n.name())).as(n.name()).singleElement().satisfies(a -> {
        assertThat(a.getJob()).isEqualTo(n.job()).isNotBlank();
        assertThat(a.getGpus()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
      });
    }

    Set<String> jobs = nodes.stream().map(SiteTopology.Node::job).collect(Collectors.toSet());
    List<CheckpointEvent> ckpts = run.of(CheckpointEvent.class);
    assertThat(ckpts).extracting(CheckpointEvent::getJob).containsOnlyElementsOf(jobs);
    GroundTruthLabel fault = run.label("CoolantFlowLow");
    for (String job : jobs) {
      assertThat(ckpts).as(job).anyMatch(c -> c.getJob().equals(job) && "completed".equals(c.getStatus())
          && c.getFinishedTs() != null && c.getFinishedTs() < fault.endTs());
    }
  }
}
