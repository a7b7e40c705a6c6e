package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.gpu.MigLayout;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiListParser;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.MigDeviceRef;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Slurm allocations on the H200 in MIG mode of the nvidia_gpu_exporter capture: five MIG devices,
 * (GI 2, CI 0) 1c.3g.71gb, (GI 2, CI 1) 2c.3g.71gb, (GI 3) 2g.35gb, (GI 9) 1g.18gb, (GI 10)
 * 1g.18gb; GI and CI from its {@code nvidia-smi -q}, profile and UUID from its {@code nvidia-smi -L}.
 * Slurm's GRES indexes 0-4 name them in that order.
 */
class SlurmAllocationsTest {
  static final String H200_MIG = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200-mig__590.48.01.txt";

  static MigLayout h200() {
    String q = TestData.section(H200_MIG, "idle :: query (-q)");
    NvidiaSmiListParser.ListedGpu listed = NvidiaSmiListParser.parse(TestData.section(H200_MIG, "capabilities :: list (-L)")).get(0);
    Matcher m = Pattern.compile("MIG Device\\s+Index\\s+:\\s+(\\d+)\\s+GPU Instance ID\\s+:\\s+(\\d+)\\s+Compute Instance ID\\s+:\\s+(\\d+)").matcher(q);
    List<MigLayout.Device> devices = new ArrayList<>();
    while (m.find()) {
      int dev = Integer.parseInt(m.group(1));
      NvidiaSmiListParser.MigDevice l = listed.migDevices().get(dev);
      devices.add(new MigLayout.Device(0, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), dev, l.profile(), l.uuid()));
    }
    Matcher minor = Pattern.compile("Minor Number\\s+:\\s+(\\d+)").matcher(q);
    assertThat(minor.find()).isTrue();
    return new MigLayout(List.of(new MigLayout.Gpu(0, Integer.parseInt(minor.group(1)), listed.uuid(), devices)));
  }

  static String gi(GpuAllocation a) {
    return a.getMigDevices().stream().map(d -> d.getGpu() + "/" + d.getGpuInstanceId() + "/" + d.getComputeInstanceId()).toList().toString();
  }

  @Test
  void theCaptureHasItsFiveMigDevices() {
    assertThat(h200().gpus().get(0).migDevices()).extracting(MigLayout.Device::gpuInstanceId, MigLayout.Device::profile)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "1c.3g.71gb"), org.assertj.core.groups.Tuple.tuple(2, "2c.3g.71gb"),
            org.assertj.core.groups.Tuple.tuple(3, "2g.35gb"), org.assertj.core.groups.Tuple.tuple(9, "1g.18gb"),
            org.assertj.core.groups.Tuple.tuple(10, "1g.18gb"));
  }

  @Test
  void typedMigGresIndexesBecomeTheirMigDevicesOnGpuZero() {
    List<SlurmJobsParser.SlurmJob> jobs = SlurmJobsParser.parseSqueue("""
        201|ann|mig|gpu:1g.18gb:1(IDX:4)
        202|bob|mig|gpu:1g.18gb:1(IDX:3)
        203|cat|mig|gpu:2g.35gb:1(IDX:2)
        204|dan|mig|gpu:3g.71gb:2(IDX:0-1)
        """);
    SlurmAllocations.Result r = SlurmAllocations.resolve(jobs, h200());
    assertThat(r.unresolved()).isEmpty();
    assertThat(r.allocations()).extracting(GpuAllocation::getJob, GpuAllocation::getGpus, SlurmAllocationsTest::gi).containsExactly(
        org.assertj.core.groups.Tuple.tuple("201", List.of(0), "[0/10/0]"),
        org.assertj.core.groups.Tuple.tuple("202", List.of(0), "[0/9/0]"),
        org.assertj.core.groups.Tuple.tuple("203", List.of(0), "[0/3/0]"),
        org.assertj.core.groups.Tuple.tuple("204", List.of(0), "[0/2/0, 0/2/1]"));
    assertThat(r.allocations().get(0).getMigDevices().get(0).getUuid()).isEqualTo("MIG-00000004-0000-0000-0000-000000000004");
  }

  @Test
  void anIndexThatIsNotADeviceOfItsProfileIsLeftUnmappedNotNamedWrong() {
    SlurmAllocations.Result r = SlurmAllocations.resolve(SlurmJobsParser.parseSqueue("""
        301|eve|mig|gpu:1g.18gb:1(IDX:0)
        302|fay|mig|gpu:1g.18gb:1(IDX:7)
        """), h200());
    assertThat(r.allocations()).allSatisfy(a -> {
      assertThat(a.getGpus()).isEmpty();
      assertThat(a.getMigDevices()).isEmpty();
    });
    assertThat(r.unresolved()).containsExactly(
        "job 301 gpu:1g.18gb IDX 0: names a 1c.3g.71gb device (GPU 0 GI 2) in this node's order",
        "job 302 gpu:1g.18gb IDX 7: the node has 5 GPU GRES");
  }

  @Test
  void withoutTheLayoutAnIndexIsAGpuIndexButAMigIndexIsNot() {
    SlurmAllocations.Result r = SlurmAllocations.resolve(SlurmJobsParser.parseSqueue("""
        401|gus|batch|gpu:a100:2(IDX:0,3)
        402|hal|mig|gpu:1g.18gb:1(IDX:3)
        """), null);
    assertThat(r.allocations().get(0).getGpus()).containsExactly(0, 3);
    assertThat(r.allocations().get(1).getGpus()).isEmpty();
    assertThat(r.unresolved()).containsExactly("job 402 gpu:1g.18gb IDX 3: a MIG device index, and no GPU layout of this node");
  }

  @Test
  void theProloguesMigUuidsResolveWithTheLayout() {
    // CUDA_VISIBLE_DEVICES of a prolog on a MIG node: the MIG UUIDs (Slurm's unique_id, drivers >= R470)
    List<SlurmJobsParser.SlurmJob> jobs = SlurmJobsParser.parseFile("""
        501 MIG-00000003-0000-0000-0000-000000000003 ivy mig
        502 MIG-00000000-0000-0000-0000-000000000000,MIG-00000001-0000-0000-0000-000000000001 jon mig
        503 MIG-GPU-00000000-0000-0000-0000-000000000000/3/0 kim mig
        504 MIG-99999999-0000-0000-0000-000000000000 lea mig
        """);
    SlurmAllocations.Result r = SlurmAllocations.resolve(jobs, h200());
    assertThat(r.allocations()).extracting(GpuAllocation::getJob, SlurmAllocationsTest::gi).containsExactly(
        org.assertj.core.groups.Tuple.tuple("501", "[0/9/0]"),
        org.assertj.core.groups.Tuple.tuple("502", "[0/2/0, 0/2/1]"),
        org.assertj.core.groups.Tuple.tuple("503", "[0/3/0]"),
        org.assertj.core.groups.Tuple.tuple("504", "[]"));
    assertThat(r.allocations().get(1).getPartition()).isEqualTo("mig");
    assertThat(r.unresolved()).containsExactly("job 504 device MIG-99999999-0000-0000-0000-000000000000: not a GPU or MIG device of this node");
    MigDeviceRef first = r.allocations().get(0).getMigDevices().get(0);
    assertThat(first.getUuid()).isEqualTo("MIG-00000003-0000-0000-0000-000000000003");
  }

  @Test
  void onANodeWithoutMigTheIndexesAreTheGpus() throws Exception {
    MigLayout whole = MigLayout.parse(TestData.read("nvidia-smi/h200-580.159.04/q-x-idle.xml"), null);
    SlurmAllocations.Result r = SlurmAllocations.resolve(SlurmJobsParser.parseSqueue("""
        601|mia|train|gpu:nvidia_h200:1(IDX:0)
        602|ned|train|gpu:1g.18gb:1(IDX:1)
        603|oli|train|gpu:2(IDX:1-2)
        """), whole);
    assertThat(r.allocations().get(0).getGpus()).containsExactly(0);
    assertThat(r.allocations().get(0).getMigDevices()).isEmpty();
    assertThat(r.allocations().get(2).getGpus()).as("Slurm's indexes, even of a GPU nvidia-smi does not list now").containsExactly(1, 2);
    assertThat(r.unresolved()).containsExactly("job 602 gpu:1g.18gb IDX 1: no GPU of this node is in MIG mode");
  }
}
