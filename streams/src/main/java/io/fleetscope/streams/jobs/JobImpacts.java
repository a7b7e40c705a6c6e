package io.fleetscope.streams.jobs;

import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.JobImpact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The training jobs an incident touches and what they stand to lose: for each job holding a GPU of
 * the blast radius, the GPUs affected, the job's size, the age of its last completed checkpoint and
 * the GPU-hours at risk (job size x time since that checkpoint: the work lost if the job dies now).
 * A node of the blast radius with no GPU named (a port, a node-level alert) affects every GPU a job
 * holds on it. Pure: the allocations and checkpoints come in, nothing is looked up here.
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
    Map<String, List<String>> affected = new LinkedHashMap<>(); // job -> node/gpu
    named.forEach((node, gpus) -> jobs.jobsOn(node).forEach((job, held) -> {
      for (Integer g : held) {
        if (gpus.isEmpty() || gpus.contains(String.valueOf(g))) {
          affected.computeIfAbsent(job, j -> new ArrayList<>()).add(node + "/" + g);
        }
      }
    }));
    List<JobImpact> out = new ArrayList<>();
    affected.forEach((job, gpus) -> out.add(impact(cluster, job, gpus, jobs.size(cluster, job),
        checkpoints.lastCompleted(cluster, job), ts)));
    out.sort(LARGEST_FIRST);
    return out;
  }

  static JobImpact impact(String cluster, String job, List<String> gpus, int size, Long lastCheckpoint, long ts) {
    int jobGpus = Math.max(size, gpus.size());
    Long ageS = lastCheckpoint == null ? null : Math.max(0L, ts - lastCheckpoint) / 1000;
    Double atRisk = ageS == null ? null : jobGpus * (ageS / 3600.0);
    return JobImpact.newBuilder().setJob(job).setGpusAffected(gpus.size()).setGpuList(gpus).setJobGpus(jobGpus)
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
