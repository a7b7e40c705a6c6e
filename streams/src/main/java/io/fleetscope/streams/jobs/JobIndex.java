package io.fleetscope.streams.jobs;

import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.MigDeviceRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which job holds which GPUs right now, from the latest fleet.jobs.v1 snapshot of every node: the
 * jobs on a node with their GPU indexes (a MIG device's GPU included) and the MIG devices each holds
 * there, and each job's size (its GPUs on every node of its cluster, a GPU counted once however many
 * of its MIG devices the job holds).
 */
public final class JobIndex {
  /** No job anywhere. */
  public static final JobIndex EMPTY = new JobIndex(Map.of(), Map.of(), Map.of());

  private final Map<String, Map<String, List<Integer>>> byNode;
  private final Map<String, Map<String, List<MigDeviceRef>>> migsByNode;
  private final Map<String, Integer> sizes;

  private JobIndex(Map<String, Map<String, List<Integer>>> byNode, Map<String, Map<String, List<MigDeviceRef>>> migsByNode,
      Map<String, Integer> sizes) {
    this.byNode = byNode;
    this.migsByNode = migsByNode;
    this.sizes = sizes;
  }

  /** The index of these snapshots, one per node (the latest of each). */
  public static JobIndex of(Iterable<JobAllocations> snapshots) {
    Map<String, Map<String, List<Integer>>> byNode = new HashMap<>();
    Map<String, Map<String, List<MigDeviceRef>>> migsByNode = new HashMap<>();
    Map<String, Integer> sizes = new HashMap<>();
    for (JobAllocations s : snapshots) {
      if (s == null) {
        continue;
      }
      Map<String, List<Integer>> jobs = new TreeMap<>();
      Map<String, List<MigDeviceRef>> migs = new TreeMap<>();
      for (GpuAllocation a : s.getAllocations()) {
        List<Integer> gpus = jobs.computeIfAbsent(a.getJob(), j -> new ArrayList<>());
        for (Integer g : a.getGpus()) {
          if (!gpus.contains(g)) {
            gpus.add(g);
          }
        }
        for (MigDeviceRef d : a.getMigDevices()) {
          if (!gpus.contains(d.getGpu())) {
            gpus.add(d.getGpu());
          }
          List<MigDeviceRef> held = migs.computeIfAbsent(a.getJob(), j -> new ArrayList<>());
          if (!held.contains(d)) {
            held.add(d);
          }
        }
      }
      byNode.put(s.getNode(), jobs);
      migsByNode.put(s.getNode(), migs);
      jobs.forEach((job, gpus) -> sizes.merge(key(s.getCluster(), job), gpus.size(), Integer::sum));
    }
    return new JobIndex(byNode, migsByNode, sizes);
  }

  /** The jobs on {@code node} with the GPU indexes each holds there (empty when none or unknown). */
  public Map<String, List<Integer>> jobsOn(String node) {
    Map<String, List<Integer>> m = byNode.get(node);
    return m == null ? Map.of() : Collections.unmodifiableMap(m);
  }

  /** The MIG devices {@code job} holds on {@code node} (empty for whole GPUs, or when the source did not resolve them). */
  public List<MigDeviceRef> migDevices(String node, String job) {
    Map<String, List<MigDeviceRef>> m = migsByNode.get(node);
    List<MigDeviceRef> l = m == null ? null : m.get(job);
    return l == null ? List.of() : Collections.unmodifiableList(l);
  }

  /** How many GPUs {@code job} holds in {@code cluster}, 0 when it holds none. */
  public int size(String cluster, String job) {
    return sizes.getOrDefault(key(cluster, job), 0);
  }

  static String key(String cluster, String job) {
    return cluster + "|" + job;
  }
}
