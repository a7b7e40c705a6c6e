package io.fleetscope.streams.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.JobImpact;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A scenario with a known answer: llama-70b-run3 holds 1,024 GPUs (GPUs 0-3 of a001 and a129, all 8 of
 * a002-a128) and last checkpointed 47 min before the incident: 1,024 x 47/60 = 802.13 GPU-hours at risk;
 * bert-ft-7 holds b001 and b002 (16 GPUs) and has no checkpoint yet; eval-2 holds GPUs 4-7 of a001.
 */
class JobImpactsTest {
  static final String CLUSTER = "c1";
  static final Instant T = Instant.parse("2026-12-01T10:00:00Z");
  static final long LLAMA_CKPT = T.minus(Duration.ofMinutes(47)).toEpochMilli();

  static JobAllocations node(String node, Map<String, List<Integer>> jobs) {
    List<GpuAllocation> a = new ArrayList<>();
    jobs.forEach((job, gpus) -> a.add(GpuAllocation.newBuilder().setJob(job).setGpus(gpus).build()));
    return JobAllocations.newBuilder().setTs(T.toEpochMilli()).setCluster(CLUSTER).setNode(node).setAgentSeq(1)
        .setAllocations(a).build();
  }

  static List<Integer> gpus(int from, int to) {
    return IntStream.rangeClosed(from, to).boxed().toList();
  }

  static JobIndex fleet() {
    List<JobAllocations> all = new ArrayList<>();
    all.add(node("a001", Map.of("llama-70b-run3", gpus(0, 3), "eval-2", gpus(4, 7))));
    for (int n = 2; n <= 128; n++) {
      all.add(node(String.format("a%03d", n), Map.of("llama-70b-run3", gpus(0, 7))));
    }
    all.add(node("a129", Map.of("llama-70b-run3", gpus(0, 3))));
    all.add(node("b001", Map.of("bert-ft-7", gpus(0, 7))));
    all.add(node("b002", Map.of("bert-ft-7", gpus(0, 7))));
    return JobIndex.of(all);
  }

  static final CheckpointLookup CHECKPOINTS = (cluster, job) ->
      CLUSTER.equals(cluster) && "llama-70b-run3".equals(job) ? LLAMA_CKPT : null;

  /** GPUs 0-3 of a001 overheating, and b001 named as a whole (a port alert names no GPU). */
  static BlastRadius radius() {
    return BlastRadius.newBuilder().setGpus(4).setNodes(2).setNodeList(List.of("a001", "b001"))
        .setGpuList(List.of("a001/0", "a001/1", "a001/2", "a001/3")).build();
  }

  @Test
  void jobSizesCountEveryNodeOfTheJob() {
    JobIndex idx = fleet();
    assertThat(idx.size(CLUSTER, "llama-70b-run3")).isEqualTo(1024); // 4 + 127 x 8 + 4
    assertThat(idx.size(CLUSTER, "bert-ft-7")).isEqualTo(16);
    assertThat(idx.size(CLUSTER, "eval-2")).isEqualTo(4);
    assertThat(idx.size("other-cluster", "bert-ft-7")).isZero();
    assertThat(idx.jobsOn("a001")).containsOnlyKeys("llama-70b-run3", "eval-2");
    assertThat(idx.jobsOn("nowhere")).isEmpty();
  }

  @Test
  void twoJobsOneWithoutCheckpointLargestAtRiskFirst() {
    List<JobImpact> jobs = JobImpacts.of(CLUSTER, radius(), fleet(), CHECKPOINTS, T.toEpochMilli());

    assertThat(jobs).extracting(JobImpact::getJob).containsExactly("llama-70b-run3", "bert-ft-7"); // eval-2 holds none of a001's GPUs 0-3
    JobImpact llama = jobs.get(0);
    assertThat(llama.getGpusAffected()).isEqualTo(4);
    assertThat(llama.getGpuList()).containsExactly("a001/0", "a001/1", "a001/2", "a001/3");
    assertThat(llama.getJobGpus()).isEqualTo(1024);
    assertThat(llama.getLastCheckpointTs()).isEqualTo(LLAMA_CKPT);
    assertThat(llama.getCheckpointAgeS()).isEqualTo(47 * 60L);
    assertThat(llama.getGpuHoursAtRisk()).isCloseTo(1024 * 47 / 60.0, within(1e-9)); // 802.13

    JobImpact bert = jobs.get(1);
    assertThat(bert.getGpusAffected()).isEqualTo(8); // b001 as a whole: every GPU bert holds there
    assertThat(bert.getGpuList()).containsExactly("b001/0", "b001/1", "b001/2", "b001/3", "b001/4", "b001/5", "b001/6", "b001/7");
    assertThat(bert.getJobGpus()).isEqualTo(16);
    assertThat(bert.getLastCheckpointTs()).isNull();
    assertThat(bert.getCheckpointAgeS()).isNull();
    assertThat(bert.getGpuHoursAtRisk()).isNull();

    assertThat(JobImpactLine.of(jobs))
        .isEqualTo("job llama-70b-run3, 1,024 GPUs, last checkpoint 47 min ago: about 800 GPU-hours at risk (+1 more)");
    assertThat(JobImpactLine.of(jobs.subList(1, 2))).isEqualTo("job bert-ft-7, 16 GPUs, no checkpoint yet");
  }

  @Test
  void theIssuesExampleLine() {
    JobImpact llama = JobImpacts.impact(CLUSTER, "llama-70b-run3", List.of("a001/0"), 1024, LLAMA_CKPT, T.toEpochMilli());
    assertThat(llama.getGpuHoursAtRisk()).isCloseTo(802.13, within(0.01));
    assertThat(JobImpactLine.of(List.of(llama)))
        .isEqualTo("job llama-70b-run3, 1,024 GPUs, last checkpoint 47 min ago: about 800 GPU-hours at risk");
  }

  @Test
  void aCheckpointStampedAfterTheIncidentIsNoRiskNotANegativeOne() {
    JobImpact j = JobImpacts.impact(CLUSTER, "j", List.of("a001/0"), 8, T.plusSeconds(30).toEpochMilli(), T.toEpochMilli());
    assertThat(j.getCheckpointAgeS()).isZero();
    assertThat(j.getGpuHoursAtRisk()).isZero();
    assertThat(JobImpactLine.of(List.of(j))).isEqualTo("job j, 8 GPUs, last checkpoint 0 s ago: less than 1 GPU-hour at risk");
  }

  @Test
  void noJobOnTheBlastRadiusIsNoLine() {
    BlastRadius elsewhere = BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of("z999"))
        .setGpuList(List.of("z999/0")).build();
    assertThat(JobImpacts.of(CLUSTER, elsewhere, fleet(), CHECKPOINTS, T.toEpochMilli())).isEmpty();
    assertThat(JobImpacts.of(CLUSTER, null, fleet(), CHECKPOINTS, T.toEpochMilli())).isEmpty();
    assertThat(JobImpactLine.of(List.of())).isNull();
  }

  @Test
  void roundingOfAgesAndGpuHours() {
    assertThat(JobImpactLine.age(59)).isEqualTo("59 s ago");
    assertThat(JobImpactLine.age(47 * 60 + 59)).isEqualTo("47 min ago");
    assertThat(JobImpactLine.age(3 * 3600 + 5 * 60)).isEqualTo("3 h 5 min ago");
    assertThat(JobImpactLine.gpuHours(0.49)).isEqualTo("less than 1 GPU-hour");
    assertThat(JobImpactLine.gpuHours(1.2)).isEqualTo("about 1 GPU-hour");
    assertThat(JobImpactLine.gpuHours(47.4)).isEqualTo("about 47 GPU-hours");
    assertThat(JobImpactLine.gpuHours(802.13)).isEqualTo("about 800 GPU-hours");
    assertThat(JobImpactLine.gpuHours(1536)).isEqualTo("about 1,500 GPU-hours");
    assertThat(JobImpactLine.gpuHours(12_960)).isEqualTo("about 13,000 GPU-hours");
  }

  @Test
  void sameJobsIgnoresTheClockButNotANewCheckpoint() {
    JobImpact now = JobImpacts.impact(CLUSTER, "j", List.of("a001/0"), 8, LLAMA_CKPT, T.toEpochMilli());
    JobImpact later = JobImpacts.impact(CLUSTER, "j", List.of("a001/0"), 8, LLAMA_CKPT, T.plusSeconds(600).toEpochMilli());
    JobImpact newer = JobImpacts.impact(CLUSTER, "j", List.of("a001/0"), 8, T.toEpochMilli(), T.plusSeconds(600).toEpochMilli());
    assertThat(JobImpacts.sameJobs(List.of(now), List.of(later))).isTrue();
    assertThat(JobImpacts.sameJobs(List.of(now), List.of(newer))).isFalse();
    assertThat(JobImpacts.sameJobs(null, List.of())).isTrue();
    assertThat(JobImpacts.sameJobs(null, List.of(now))).isFalse();
  }

  /**
   * An H200 in MIG mode (the five MIG devices of the nvidia_gpu_exporter H200 MIG capture): the agent
   * sends each pod on a MIG device with the GPU that holds it, so three jobs each hold GPU 0 of m001
   * (one of them with two of its MIG devices) and one job holds GPU 1. An anomaly on the physical
   * GPU 0 touches every job on its MIG devices, and a job's size counts the physical GPU once.
   */
  @Test
  void anAnomalyOnAGpuInMigModeTouchesEveryJobOnItsMigDevices() {
    JobIndex idx = JobIndex.of(List.of(JobAllocations.newBuilder().setTs(T.toEpochMilli()).setCluster(CLUSTER).setNode("m001")
        .setAgentSeq(1).setAllocations(List.of(
            GpuAllocation.newBuilder().setJob("ml/small-a").setGpus(List.of(0)).build(),
            GpuAllocation.newBuilder().setJob("ml/small-b").setGpus(List.of(0)).build(),
            GpuAllocation.newBuilder().setJob("ml/medium").setGpus(List.of(0, 0)).build(),
            GpuAllocation.newBuilder().setJob("ml/whole").setGpus(List.of(1)).build())).build()));
    BlastRadius gpu0 = BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of("m001")).setGpuList(List.of("m001/0")).build();

    List<JobImpact> jobs = JobImpacts.of(CLUSTER, gpu0, idx, CHECKPOINTS, T.toEpochMilli());

    assertThat(jobs).extracting(JobImpact::getJob).containsExactlyInAnyOrder("ml/small-a", "ml/small-b", "ml/medium");
    assertThat(jobs).allSatisfy(j -> {
      assertThat(j.getGpuList()).containsExactly("m001/0");
      assertThat(j.getGpusAffected()).isEqualTo(1);
      assertThat(j.getJobGpus()).isEqualTo(1);
    });
  }

  /**
   * The H200 of the nvidia_gpu_exporter MIG capture as Slurm hands it out: ml/eighth-a holds the
   * 1g.18gb MIG device with GPU instance 9, ml/eighth-b the one with GPU instance 10, both on GPU 0
   * of m002; ml/whole holds GPU 1; ml/unresolved was sent with GPU 0 only (its MIG device not
   * resolved). A fault on MIG device 0:gi9 names ml/eighth-a and, since it cannot be ruled out,
   * ml/unresolved; a fault on GPU 0 names all three jobs on it.
   */
  @Test
  void aFaultOnOneMigDeviceNamesItsJobAndOneOnTheParentGpuNamesEveryJobOnIt() {
    JobIndex idx = JobIndex.of(List.of(JobAllocations.newBuilder().setTs(T.toEpochMilli()).setCluster(CLUSTER).setNode("m002")
        .setAgentSeq(1).setAllocations(List.of(
            GpuAllocation.newBuilder().setJob("ml/eighth-a").setGpus(List.of(0)).setMigDevices(List.of(mig(0, 9))).build(),
            GpuAllocation.newBuilder().setJob("ml/eighth-b").setGpus(List.of(0)).setMigDevices(List.of(mig(0, 10))).build(),
            GpuAllocation.newBuilder().setJob("ml/whole").setGpus(List.of(1)).build(),
            GpuAllocation.newBuilder().setJob("ml/unresolved").setGpus(List.of(0)).build())).build()));
    BlastRadius gi9 = BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of("m002")).setGpuList(List.of("m002/0:gi9")).build();
    BlastRadius gpu0 = BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of("m002")).setGpuList(List.of("m002/0")).build();
    BlastRadius node = BlastRadius.newBuilder().setGpus(0).setNodes(1).setNodeList(List.of("m002")).build();

    List<JobImpact> onMig = JobImpacts.of(CLUSTER, gi9, idx, CHECKPOINTS, T.toEpochMilli());
    assertThat(onMig).extracting(JobImpact::getJob).containsExactlyInAnyOrder("ml/eighth-a", "ml/unresolved");
    assertThat(onMig).filteredOn(j -> j.getJob().equals("ml/eighth-a")).singleElement().satisfies(j -> {
      assertThat(j.getGpuList()).containsExactly("m002/0:gi9");
      assertThat(j.getGpusAffected()).isEqualTo(1);
      assertThat(j.getJobGpus()).isEqualTo(1);
    });
    assertThat(onMig).filteredOn(j -> j.getJob().equals("ml/unresolved")).singleElement()
        .satisfies(j -> assertThat(j.getGpuList()).containsExactly("m002/0"));

    List<JobImpact> onGpu = JobImpacts.of(CLUSTER, gpu0, idx, CHECKPOINTS, T.toEpochMilli());
    assertThat(onGpu).extracting(JobImpact::getJob).containsExactlyInAnyOrder("ml/eighth-a", "ml/eighth-b", "ml/unresolved");
    assertThat(onGpu).filteredOn(j -> j.getJob().equals("ml/eighth-b")).singleElement()
        .satisfies(j -> assertThat(j.getGpuList()).containsExactly("m002/0:gi10"));

    assertThat(JobImpacts.of(CLUSTER, node, idx, CHECKPOINTS, T.toEpochMilli())).extracting(JobImpact::getJob)
        .containsExactlyInAnyOrder("ml/eighth-a", "ml/eighth-b", "ml/whole", "ml/unresolved");
  }

  @Test
  void aJobOnTwoMigDevicesOfOneGpuCountsTheGpuOnce() {
    JobIndex idx = JobIndex.of(List.of(JobAllocations.newBuilder().setTs(T.toEpochMilli()).setCluster(CLUSTER).setNode("m002")
        .setAgentSeq(1).setAllocations(List.of(GpuAllocation.newBuilder().setJob("ml/quarter").setGpus(List.of(0))
            .setMigDevices(List.of(mig(0, 9), mig(0, 10))).build())).build()));
    BlastRadius gpu0 = BlastRadius.newBuilder().setGpus(1).setNodes(1).setNodeList(List.of("m002")).setGpuList(List.of("m002/0")).build();
    assertThat(JobImpacts.of(CLUSTER, gpu0, idx, CHECKPOINTS, T.toEpochMilli())).singleElement().satisfies(j -> {
      assertThat(j.getGpuList()).containsExactly("m002/0:gi9", "m002/0:gi10");
      assertThat(j.getGpusAffected()).isEqualTo(1);
      assertThat(j.getJobGpus()).isEqualTo(1);
    });
  }

  static io.fleetscope.avro.MigDeviceRef mig(int gpu, int gi) {
    return io.fleetscope.avro.MigDeviceRef.newBuilder().setGpu(gpu).setGpuInstanceId(gi).setComputeInstanceId(0).build();
  }
}
