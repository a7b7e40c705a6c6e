package io.fleetscope.streams.jobs;

import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.avro.MigDeviceRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The training jobs an incident touches and what they stand to lose: for each job holding a GPU of
 * the blast radius, the GPUs affected, the job's size, the age of its last completed checkpoint and
 * the GPU-hours at risk (job size x time since that checkpoint: the work lost if the job dies now).
 * A node of the blast radius with no GPU named (a port, a node-level alert) affects every GPU a job
 * holds on it. A MIG device ({@code node/3:gi2}) affects the jobs on that MIG device, and its GPU
 * every job on any of its MIG devices ({@link #touched}). Pure: the allocations and checkpoints come in, nothing is looked up here.
 */
public final class JobImpacts {
  private JobImpacts() {}

  /** Largest GPU-hours at risk first; jobs with no checkpoint yet after those, bigger jobs first. */
  public static final Comparator<JobImpact> LARGEST_FIRST = Comparator
      .comparing((JobImpact j) -> j.getGpuHoursAtRisk() == null ? Double.NEGATIVE_INFINITY : j.getGpuHoursAtRisk(),
          Comparator.reverseOrder())
      .thenComparing(JobImpact::getJobGpus, Comparator.reverseOrder())
      .thenComparing(JobImpact::getJob);

  /** The jobs the blast radius touches at {@code ts} (epoch ms), {@link #LARGEST_FIRST}; empty when none. */
  public static List<JobImpact> of(String cluster, BlastRadius radius, JobIndex jobs, CheckpointLookup checkpoints, long ts) {
    if (radius == null) {
      return List.of();
    }
    Map<String, TreeSet<String>> named = new LinkedHashMap<>(); // node -> its GPUs in the radius
    for (String node : radius.getNodeList()) {
      named.put(node, new TreeSet<>());
    }
    for (String g : radius.getGpuList()) {
      int slash = g.lastIndexOf('/');
      if (slash > 0) {
        named.computeIfAbsent(g.substring(0, slash), n -> new TreeSet<>()).add(g.substring(slash + 1));
      }
    }
    Map<String, List<String>> affected = new LinkedHashMap<>(); // job -> node/gpu or node/gpu:giN
    named.forEach((node, gpus) -> jobs.jobsOn(node).forEach((job, held) -> {
      List<MigDeviceRef> migs = jobs.migDevices(node, job);
      for (Integer g : held) {
        for (String d : touched(g, migs, gpus)) {
          affected.computeIfAbsent(job, j -> new ArrayList<>()).add(node + "/" + d);
        }
      }
    }));
    List<JobImpact> out = new ArrayList<>();
    affected.forEach((job, gpus) -> out.add(impact(cluster, job, gpus, jobs.size(cluster, job),
        checkpoints.lastCompleted(cluster, job), ts)));
    out.sort(LARGEST_FIRST);
    return out;
  }

  /**
   * What a job holding GPU {@code g} (and, of it, the MIG devices in {@code migs}) has inside the
   * blast radius's GPUs {@code named} of its node (empty: the whole node): the whole GPU when it or
   * the node is named; a MIG device when it or its GPU is named; and, when the job's MIG device on
   * {@code g} is not known (a whole GPU, or a source that named only the GPU), the GPU when any MIG
   * device of it is named, since it cannot be ruled out.
   */
  static List<String> touched(int g, List<MigDeviceRef> migs, Set<String> named) {
    List<MigDeviceRef> onG = migs.stream().filter(d -> d.getGpu() == g).toList();
    boolean whole = named.isEmpty() || named.contains(String.valueOf(g));
    if (onG.isEmpty()) {
      boolean anyMigOfG = named.stream().anyMatch(n -> n.startsWith(g + ":"));
      return whole || anyMigOfG ? List.of(String.valueOf(g)) : List.of();
    }
    List<String> out = new ArrayList<>();
    for (MigDeviceRef d : onG) {
      String id = migDevice(String.valueOf(g), String.valueOf(d.getGpuInstanceId()));
      if ((whole || named.contains(id)) && !out.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  /** {@code node/3} of {@code node/3:gi2}; {@code node/3} itself. */
  static String physicalGpu(String nodeGpu) {
    int c = nodeGpu.indexOf(':', nodeGpu.lastIndexOf('/') + 1);
    return c < 0 ? nodeGpu : nodeGpu.substring(0, c);
  }

  /** A MIG device as a blast radius and a job impact name it after the node: {@code 3:gi2} (GPU 3, GPU instance 2). */
  public static String migDevice(String gpu, String gpuInstance) {
    return gpu + ":gi" + gpuInstance;
  }

  static JobImpact impact(String cluster, String job, List<String> gpus, int size, Long lastCheckpoint, long ts) {
    // a GPU counts once however many of its MIG devices are listed (node/3:gi1, node/3:gi2)
    int physical = (int) gpus.stream().map(JobImpacts::physicalGpu).distinct().count();
    int jobGpus = Math.max(size, physical);
    Long ageS = lastCheckpoint == null ? null : Math.max(0L, ts - lastCheckpoint) / 1000;
    Double atRisk = ageS == null ? null : jobGpus * (ageS / 3600.0);
    return JobImpact.newBuilder().setJob(job).setGpusAffected(physical).setGpuList(gpus).setJobGpus(jobGpus)
        .setLastCheckpointTs(lastCheckpoint).setCheckpointAgeS(ageS).setGpuHoursAtRisk(atRisk).build();
  }

  /**
   * Whether two lists name the same jobs, GPUs, sizes and checkpoints: what does not move with the
   * clock (the age and the GPU-hours at risk grow every second; an incident is not re-sent for that).
   */
  public static boolean sameJobs(List<JobImpact> a, List<JobImpact> b) {
    List<JobImpact> x = a == null ? List.of() : a;
    List<JobImpact> y = b == null ? List.of() : b;
    if (x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      JobImpact p = x.get(i);
      JobImpact q = y.get(i);
      if (!p.getJob().equals(q.getJob()) || !p.getGpuList().equals(q.getGpuList()) || p.getJobGpus() != q.getJobGpus()
          || !Objects.equals(p.getLastCheckpointTs(), q.getLastCheckpointTs())) {
        return false;
      }
    }
    return true;
  }
}
