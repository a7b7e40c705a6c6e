package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.avro.GpuAllocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which pod owns which GPUs, from the pod-resources reply: one allocation per pod that holds at
 * least one device of a GPU resource ({@code nvidia.com/gpu} by default), job {@code namespace/pod},
 * GPUs the union over the pod's containers, sorted. A device id is a GPU index when the device plugin
 * reports indices ({@code DEVICE_ID_STRATEGY=index}) and a GPU UUID otherwise ({@code GPU-...}, the
 * NVIDIA plugin's default), mapped to its index with {@code uuidToIndex}. Ids that map to no GPU
 * (a MIG device, a GPU the map does not know) are returned in {@link Result#unmapped} so the caller
 * can say so; their pod is still sent with the GPUs that did map.
 */
public final class KubernetesAllocations {
  private KubernetesAllocations() {}

  public record Result(List<GpuAllocation> allocations, Set<String> unmapped) {}

  public static Result map(List<PodResourcesParser.Pod> pods, Set<String> gpuResources, Map<String, Integer> uuidToIndex) {
    TreeMap<String, TreeSet<Integer>> byJob = new TreeMap<>();
    TreeMap<String, String> namespaceOf = new TreeMap<>();
    Set<String> unmapped = new TreeSet<>();
    for (PodResourcesParser.Pod pod : pods) {
      String job = pod.namespace().isEmpty() ? pod.name() : pod.namespace() + "/" + pod.name();
      for (PodResourcesParser.Devices d : pod.devices()) {
        if (!gpuResources.contains(d.resourceName()) || d.deviceIds().isEmpty()) continue;
        TreeSet<Integer> gpus = byJob.computeIfAbsent(job, k -> new TreeSet<>());
        namespaceOf.put(job, pod.namespace());
        for (String id : d.deviceIds()) {
          Integer idx = index(id, uuidToIndex);
          if (idx == null) unmapped.add(id);
          else gpus.add(idx);
        }
      }
    }
    List<GpuAllocation> out = new ArrayList<>();
    byJob.forEach((job, gpus) -> out.add(GpuAllocation.newBuilder()
        .setJob(job).setGpus(new ArrayList<>(gpus)).setUser(null)
        .setPartition(namespaceOf.get(job).isEmpty() ? null : namespaceOf.get(job))
        .build()));
    return new Result(out, unmapped);
  }

  private static Integer index(String id, Map<String, Integer> uuidToIndex) {
    if (isIndex(id)) return Integer.parseInt(id);
    return uuidToIndex.get(id);
  }

  private static boolean isIndex(String id) {
    if (id.isEmpty() || id.length() > 4) return false;
    for (int i = 0; i < id.length(); i++) if (id.charAt(i) < '0' || id.charAt(i) > '9') return false;
    return true;
  }
}
