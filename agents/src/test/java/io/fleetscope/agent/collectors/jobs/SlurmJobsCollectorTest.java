package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs collector with source squeue on the netdata A100 in MIG mode (GPU instances 1 and 2 on
 * GPU 0, its {@code nvidia-smi -q -x}): the commands are real processes reading files.
 */
class SlurmJobsCollectorTest {
  @TempDir Path dir;

  @Test
  void migGresIndexesAreSentAsMigDevicesAndTheLayoutIsReadOnlyWhenTheJobsChange() throws Exception {
    Path xml = dir.resolve("q-x.xml");
    Files.writeString(xml, TestData.read("nvidia-smi/netdata-a100-sxm4-mig.xml"));
    Path squeue = dir.resolve("squeue.txt");
    Files.writeString(squeue, "71|ann|mig|gpu:3g.20gb:1(IDX:1)\n72|bob|mig|gpu:3g.20gb:1(IDX:0)\n");
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "a100-mig-1";
    agent.baseDir = dir;
    JobsCollector.Config cfg = new JobsCollector.Config();
    cfg.source = "squeue";
    cfg.command = List.of("cat", squeue.toString());
    cfg.gpuLayoutCommand = List.of("sh", "-c", "echo run >> layout-runs; cat " + xml);
    cfg.migListCommand = List.of("false"); // fails: the layout is used without profiles
    cfg.validate("jobs");
    JobsCollector c = new JobsCollector(cfg, new AgentEnv(agent));

    List<AgentRecord> first = c.collect(new CollectContext(TestData.TS, "c", "a100-mig-1"));
    JobAllocations rec = (JobAllocations) first.get(0).value();
    assertThat(rec.getSource()).isEqualTo("squeue");
    assertThat(rec.getAllocations()).extracting(GpuAllocation::getJob, GpuAllocation::getGpus,
        a -> a.getMigDevices().stream().map(d -> d.getGpuInstanceId()).toList())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("71", List.of(0), List.of(2)),
            org.assertj.core.groups.Tuple.tuple("72", List.of(0), List.of(1)));

    assertThat(c.collect(new CollectContext(TestData.TS + 10_000, "c", "a100-mig-1"))).as("unchanged: nothing sent").isEmpty();
    Files.writeString(squeue, "71|ann|mig|gpu:3g.20gb:1(IDX:1)\n");
    assertThat(c.collect(new CollectContext(TestData.TS + 20_000, "c", "a100-mig-1"))).hasSize(1);
    assertThat(Files.readAllLines(dir.resolve("layout-runs"))).as("read when the jobs changed, not every round").hasSize(2);
  }

  @Test
  void aLayoutThatCannotBeReadLeavesTheMigIndexUnmappedAndIsReadAgainNextRound() throws Exception {
    Path xml = dir.resolve("q-x.xml");
    Path squeue = dir.resolve("squeue.txt");
    Files.writeString(squeue, "81|cy|mig|gpu:3g.20gb:1(IDX:1)\n");
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "a100-mig-1";
    agent.baseDir = dir;
    JobsCollector.Config cfg = new JobsCollector.Config();
    cfg.source = "squeue";
    cfg.command = List.of("cat", squeue.toString());
    cfg.gpuLayoutCommand = List.of("cat", xml.toString()); // not there yet: the command fails
    cfg.migListCommand = List.of();
    cfg.validate("jobs");
    JobsCollector c = new JobsCollector(cfg, new AgentEnv(agent));

    JobAllocations first = (JobAllocations) c.collect(new CollectContext(TestData.TS, "c", "a100-mig-1")).get(0).value();
    assertThat(first.getAllocations()).singleElement().satisfies(a -> {
      assertThat(a.getGpus()).as("a MIG index is not a GPU index").isEmpty();
      assertThat(a.getMigDevices()).isEmpty();
    });
    Files.writeString(xml, TestData.read("nvidia-smi/netdata-a100-sxm4-mig.xml"));
    JobAllocations second = (JobAllocations) c.collect(new CollectContext(TestData.TS + 10_000, "c", "a100-mig-1")).get(0).value();
    assertThat(second.getAllocations()).singleElement().satisfies(a -> {
      assertThat(a.getGpus()).containsExactly(0);
      assertThat(a.getMigDevices()).extracting(d -> d.getGpuInstanceId()).containsExactly(2);
    });
  }
}
