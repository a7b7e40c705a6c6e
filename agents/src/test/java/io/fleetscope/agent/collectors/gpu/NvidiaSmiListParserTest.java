package io.fleetscope.agent.collectors.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.jobs.KubernetesAllocations;
import io.fleetscope.agent.collectors.jobs.PodResourcesParser.Devices;
import io.fleetscope.agent.collectors.jobs.PodResourcesParser.Pod;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuAllocation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code nvidia-smi -L} on the real captures, and MIG device ids of pods mapped to their GPU with it. */
class NvidiaSmiListParserTest {
  static final String H200_MIG = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200-mig__590.48.01.txt";
  static final String H100 = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt";

  static List<NvidiaSmiListParser.ListedGpu> listing(String capture) {
    return NvidiaSmiListParser.parse(TestData.section(capture, "capabilities :: list (-L)"));
  }

  @Test
  void anH200InMigModeListsItsFiveMigDevices() {
    assertThat(listing(H200_MIG)).containsExactly(new NvidiaSmiListParser.ListedGpu(0, "NVIDIA H200",
        "GPU-00000000-0000-0000-0000-000000000000", List.of(
            new NvidiaSmiListParser.MigDevice("1c.3g.71gb", 0, "MIG-00000000-0000-0000-0000-000000000000"),
            new NvidiaSmiListParser.MigDevice("2c.3g.71gb", 1, "MIG-00000001-0000-0000-0000-000000000001"),
            new NvidiaSmiListParser.MigDevice("2g.35gb", 2, "MIG-00000002-0000-0000-0000-000000000002"),
            new NvidiaSmiListParser.MigDevice("1g.18gb", 3, "MIG-00000003-0000-0000-0000-000000000003"),
            new NvidiaSmiListParser.MigDevice("1g.18gb", 4, "MIG-00000004-0000-0000-0000-000000000004"))));
  }

  @Test
  void aGpuWithoutMigHasNoMigDevices() {
    List<NvidiaSmiListParser.ListedGpu> l = listing(H100);
    assertThat(l).hasSize(1);
    assertThat(l.get(0).model()).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(l.get(0).migDevices()).isEmpty();
  }

  @Test
  void podsHoldingMigDevicesAreSentWithTheGpuThatHoldsThem() {
    Map<String, Integer> uuids = NvidiaSmiListParser.uuidToGpuIndex(listing(H200_MIG));
    List<Pod> pods = List.of(
        new Pod("ml", "small-a", List.of(new Devices("c", "nvidia.com/gpu", List.of("MIG-00000003-0000-0000-0000-000000000003")))),
        new Pod("ml", "small-b", List.of(new Devices("c", "nvidia.com/mig-2g.35gb", List.of("MIG-00000002-0000-0000-0000-000000000002")))),
        new Pod("ml", "odd", List.of(new Devices("c", "nvidia.com/gpu", List.of("MIG-00000009-0000-0000-0000-000000000009")))));
    KubernetesAllocations.Result r = KubernetesAllocations.map(pods, Set.of("nvidia.com/gpu", "nvidia.com/mig-2g.35gb"), uuids);
    assertThat(r.allocations()).extracting(GpuAllocation::getJob, GpuAllocation::getGpus).containsExactly(
        org.assertj.core.groups.Tuple.tuple("ml/odd", List.of()), // still sent, with no GPU
        org.assertj.core.groups.Tuple.tuple("ml/small-a", List.of(0)),
        org.assertj.core.groups.Tuple.tuple("ml/small-b", List.of(0)));
    assertThat(r.unmapped()).as("a MIG id that no GPU lists stays reported").containsExactly("MIG-00000009-0000-0000-0000-000000000009");
  }
}
