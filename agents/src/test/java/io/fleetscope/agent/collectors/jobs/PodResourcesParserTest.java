package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.collectors.jobs.PodResourcesParser.Devices;
import io.fleetscope.agent.collectors.jobs.PodResourcesParser.Pod;
import io.fleetscope.agent.collectors.jobs.PodResourcesReplies.Container;
import io.fleetscope.agent.collectors.jobs.PodResourcesReplies.Grant;
import io.fleetscope.avro.GpuAllocation;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodResourcesParserTest {
  static final String UUID0 = "GPU-4f6c2a10-8e1b-4c7d-9a35-0d2b6e7f8a01";
  static final String UUID1 = "GPU-9b0e3d21-7a4c-4e8f-b126-5c3d9e0f1a12";
  static final String UUID2 = "GPU-1c7a5e32-6b3d-4f9a-8c47-2e4f0a1b2c23";
  static final String UUID3 = "GPU-7e2b8f43-5c6e-4a0b-9d58-3f5a1b2c3d34";

  /** A node with a 4-GPU trainer (two containers, one a sidecar without devices), an RDMA-only pod and a CPU-only pod. */
  static List<PodResourcesReplies.Pod> node() {
    return List.of(
        new PodResourcesReplies.Pod("ml-team", "llama-70b-worker-3", List.of(
            new Container("trainer", List.of(
                new Grant("nvidia.com/gpu", List.of(UUID2, UUID0, UUID3, UUID1), 0),
                new Grant("rdma/rdma_shared_device_a", List.of("r0"), 0)), List.of(2L, 3L, 66L, 67L)),
            new Container("log-shipper", List.of(), List.of()))),
        new PodResourcesReplies.Pod("net", "sriov-probe", List.of(
            new Container("probe", List.of(new Grant("rdma/rdma_shared_device_a", List.of("r1"), 1)), List.of()))),
        new PodResourcesReplies.Pod("kube-system", "kube-proxy-x7k2p", List.of(
            new Container("kube-proxy", List.of(), List.of()))));
  }

  @Test
  void decodesEveryPodAndDeviceGrantOfAProtobufEncodedReply() {
    List<Pod> pods = PodResourcesParser.parseListResponse(PodResourcesReplies.listResponse(node()));
    assertThat(pods).containsExactly(
        new Pod("ml-team", "llama-70b-worker-3", List.of(
            new Devices("trainer", "nvidia.com/gpu", List.of(UUID2, UUID0, UUID3, UUID1)),
            new Devices("trainer", "rdma/rdma_shared_device_a", List.of("r0")))),
        new Pod("net", "sriov-probe", List.of(new Devices("probe", "rdma/rdma_shared_device_a", List.of("r1")))),
        new Pod("kube-system", "kube-proxy-x7k2p", List.of()));
  }

  @Test
  void anEmptyReplyIsANodeWithoutPods() {
    assertThat(PodResourcesParser.parseListResponse(new byte[0])).isEmpty();
  }

  @Test
  void aTruncatedReplyIsAClearError() {
    byte[] full = PodResourcesReplies.listResponse(node());
    byte[] cut = Arrays.copyOf(full, full.length - 7);
    assertThatThrownBy(() -> PodResourcesParser.parseListResponse(cut))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pod-resources reply is not valid protobuf")
        .hasMessageContaining("runs past the end");
  }

  @Test
  void podsBecomeJobsWithTheirGpuIndices() {
    List<Pod> pods = PodResourcesParser.parseListResponse(PodResourcesReplies.listResponse(node()));
    Map<String, Integer> uuids = Map.of(UUID0, 0, UUID1, 1, UUID2, 2, UUID3, 3);
    KubernetesAllocations.Result r = KubernetesAllocations.map(pods, Set.of("nvidia.com/gpu"), uuids);
    assertThat(r.allocations()).containsExactly(
        GpuAllocation.newBuilder().setJob("ml-team/llama-70b-worker-3").setGpus(List.of(0, 1, 2, 3)).setUser(null).setPartition("ml-team").build());
    assertThat(r.unmapped()).isEmpty();
    assertThat(KubernetesAllocations.map(pods, Set.of("nvidia.com/gpu"), Map.of()).unmapped()).containsExactlyInAnyOrder(UUID0, UUID1, UUID2, UUID3);
  }

  @Test
  void indexIdsNeedNoMapAndUnknownIdsAreReportedNotDropped() {
    List<Pod> pods = List.of(
        new Pod("a", "p1", List.of(new Devices("c", "nvidia.com/gpu", List.of("5", "4")))),
        new Pod("a", "p2", List.of(
            new Devices("c1", "nvidia.com/gpu", List.of("6")),
            new Devices("c2", "nvidia.com/gpu", List.of("MIG-00000001-0000-0000-0000-000000000001", "7")))));
    KubernetesAllocations.Result r = KubernetesAllocations.map(pods, Set.of("nvidia.com/gpu"), Map.of());
    assertThat(r.allocations()).extracting(GpuAllocation::getJob, GpuAllocation::getGpus)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a/p1", List.of(4, 5)),
            org.assertj.core.groups.Tuple.tuple("a/p2", List.of(6, 7)));
    assertThat(r.unmapped()).containsExactly("MIG-00000001-0000-0000-0000-000000000001");
  }
}
