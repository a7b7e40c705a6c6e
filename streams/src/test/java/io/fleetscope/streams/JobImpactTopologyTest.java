package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.streams.jobs.LastCheckpointProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The jobs an incident touches, on the real topology: fleet.jobs.v1 and fleet.ckpt.v1 in, each
 * incident with its jobs, the page's one-line annotation, no re-send while only the clock moves.
 * Fleet: llama-70b-run3 holds all 32 GPUs of rack r07 and completed a checkpoint 47 min before the
 * coolant fault; bert-ft-7 holds gpu-r08-n01 and has no checkpoint yet.
 */
class JobImpactTopologyTest {
  private Harness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0",
        CorrelatorConfig.INVENTORY_CACHE, "0"));
    for (int n = 1; n <= 4; n++) {
      allocate(Fleet.node(7, n), "llama-70b-run3");
    }
    allocate(Fleet.node(8, 1), "bert-ft-7");
    checkpoint("llama-70b-run3", 11_000, "completed", T0.minus(Duration.ofMinutes(95)));
    checkpoint("llama-70b-run3", 12_000, "completed", T0.minus(Duration.ofMinutes(47)));
    checkpoint("llama-70b-run3", 11_500, "completed", T0.minus(Duration.ofMinutes(70))); // late record: older, ignored
    checkpoint("llama-70b-run3", 13_000, "started", T0.minus(Duration.ofMinutes(2))); // not completed: no effect
    checkpoint("bert-ft-7", 100, "failed", T0.minus(Duration.ofMinutes(5))); // a failed one is no checkpoint
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  private void allocate(String node, String job) {
    GpuAllocation a = GpuAllocation.newBuilder().setJob(job).setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build();
    h.jobs.pipeInput(node, JobAllocations.newBuilder().setTs(T0.toEpochMilli()).setCluster(Fleet.CLUSTER).setNode(node)
        .setAgentSeq(1).setAllocations(List.of(a)).build(), T0);
  }

  private void checkpoint(String job, long step, String status, Instant finished) {
    CheckpointEvent e = CheckpointEvent.newBuilder().setTs(finished.toEpochMilli()).setCluster(Fleet.CLUSTER)
        .setNode(Fleet.node(7, 1)).setAgentSeq(step).setJob(job).setStep(step).setBytes(1_400_000_000_000L)
        .setStartedTs(finished.minusSeconds(40).toEpochMilli())
        .setFinishedTs("started".equals(status) ? null : finished.toEpochMilli()).setTier("lustre").setStatus(status).build();
    h.checkpoints.pipeInput(Fleet.node(7, 1), e, finished);
  }

  @Test
  void theCoolingIncidentNamesTheJobBehindItsBlastRadiusWithTheGpuHoursAtRisk() {
    h.pipe(Fleet.coolantFlowLow(T0), T0);
    Alert causeOnly = h.alerts.readValuesToList().get(0);
    assertThat(causeOnly.getJobs()).isNull(); // no GPU alerting yet: no job named
    assertThat(causeOnly.getAnnotations()).doesNotContainKey("jobs");

    h.pipeAll(Fleet.rack07Hot(T0), T0);
    List<Alert> out = h.alerts.readValuesToList();
    Alert full = out.get(out.size() - 1);
    assertThat(full.getBlastRadius().getGpus()).isEqualTo(32);
    assertThat(full.getJobs()).hasSize(1);
    JobImpact llama = full.getJobs().get(0);
    assertThat(llama.getJob()).isEqualTo("llama-70b-run3");
    assertThat(llama.getGpusAffected()).isEqualTo(32);
    assertThat(llama.getJobGpus()).isEqualTo(32);
    assertThat(llama.getLastCheckpointTs()).isEqualTo(T0.minus(Duration.ofMinutes(47)).toEpochMilli());
    assertThat(llama.getCheckpointAgeS()).isEqualTo(47 * 60L);
    assertThat(llama.getGpuHoursAtRisk()).isCloseTo(32 * 47 / 60.0, within(1e-9));
    assertThat(full.getAnnotations()).containsEntry("jobs",
        "job llama-70b-run3, 32 GPUs, last checkpoint 47 min ago: about 25 GPU-hours at risk");
    assertThat(h.<Long>store(LastCheckpointProcessor.STORE)).extracting(kv -> kv.key + "=" + kv.value)
        .containsExactly("c1|llama-70b-run3=" + T0.minus(Duration.ofMinutes(47)).toEpochMilli());

    // the page carries the line
    h.advance(Duration.ofSeconds(1));
    assertThat(h.sink.batches).isNotEmpty();
    assertThat(h.sink.last()).filteredOn(a -> a.fingerprint().equals(full.getFingerprint())).singleElement()
        .satisfies(a -> assertThat(a.annotations().get("jobs")).startsWith("job llama-70b-run3, 32 GPUs"));
  }

  @Test
  void aJobWithoutCheckpointSaysSoTheClockAloneResendsNothingAndAnEndedJobIsNoLongerNamed() {
    Anomaly hot = Fleet.gpuHot(T0, Fleet.node(8, 1), 5);
    h.pipe(hot, T0);
    Alert single = h.alerts.readValuesToList().get(0);
    assertThat(single.getJobs()).singleElement().satisfies(j -> {
      assertThat(j.getJob()).isEqualTo("bert-ft-7");
      assertThat(j.getGpuList()).containsExactly("gpu-r08-n01/5");
      assertThat(j.getJobGpus()).isEqualTo(8);
      assertThat(j.getLastCheckpointTs()).isNull();
      assertThat(j.getGpuHoursAtRisk()).isNull();
    });
    assertThat(single.getAnnotations()).containsEntry("jobs", "job bert-ft-7, 8 GPUs, no checkpoint yet");

    // ten minutes on, another GPU of the same node: its own incident; the first is not re-emitted
    Anomaly other = Fleet.gpuHot(T0.plusSeconds(600), Fleet.node(8, 1), 6);
    h.pipe(other, T0.plusSeconds(600));
    assertThat(h.alerts.readValuesToList()).extracting(Alert::getFingerprint).containsExactly(other.getFingerprint());

    // the job's first checkpoint completes; the next change of the incident carries it
    checkpoint("bert-ft-7", 200, "completed", T0.plusSeconds(900));
    h.pipe(Fleet.resolved(other, T0.plusSeconds(1200)), T0.plusSeconds(1200));
    h.pipe(Fleet.gpuHot(T0.plusSeconds(1500), Fleet.node(8, 1), 6), T0.plusSeconds(1500));
    Alert again = h.alerts.readValuesToList().get(1);
    assertThat(again.getJobs()).singleElement().satisfies(j -> {
      assertThat(j.getCheckpointAgeS()).isEqualTo(600L);
      assertThat(j.getGpuHoursAtRisk()).isCloseTo(8 * 600 / 3600.0, within(1e-9));
    });
    assertThat(again.getAnnotations()).containsEntry("jobs",
        "job bert-ft-7, 8 GPUs, last checkpoint 10 min ago: about 1 GPU-hour at risk");

    // the job ends (the node's allocation is empty): a new incident there names no job
    h.jobs.pipeInput(Fleet.node(8, 1), JobAllocations.newBuilder().setTs(T0.plusSeconds(1600).toEpochMilli())
        .setCluster(Fleet.CLUSTER).setNode(Fleet.node(8, 1)).setAgentSeq(2).setAllocations(List.of()).build(), T0.plusSeconds(1600));
    h.pipe(Fleet.gpuHot(T0.plusSeconds(1700), Fleet.node(8, 1), 7), T0.plusSeconds(1700));
    Alert jobless = h.alerts.readValuesToList().get(0);
    assertThat(jobless.getJobs()).isNull();
    assertThat(jobless.getAnnotations()).doesNotContainKey("jobs");
  }

  /**
   * Two jobs on two MIG devices (GPU instances 9 and 10) of GPU 0 of gpu-r08-n02: an uncorrectable
   * ECC error on MIG device 0:gi9 pages with the one job on it; a thermal anomaly of GPU 0 itself,
   * a separate incident, names both.
   */
  @Test
  void anAnomalyOnAMigDeviceNamesTheJobOnItAndOneOnItsGpuNamesBoth() {
    String node = Fleet.node(8, 2);
    h.jobs.pipeInput(node, JobAllocations.newBuilder().setTs(T0.toEpochMilli()).setCluster(Fleet.CLUSTER).setNode(node).setAgentSeq(1)
        .setAllocations(List.of(
            GpuAllocation.newBuilder().setJob("infer-a").setGpus(List.of(0)).setMigDevices(List.of(mig(0, 9))).build(),
            GpuAllocation.newBuilder().setJob("infer-b").setGpus(List.of(0)).setMigDevices(List.of(mig(0, 10))).build())).build(), T0);
    Anomaly ecc = Fleet.firing(T0, Fleet.labels("alertname", "GpuEccUncorrectable", "severity", "critical", "node", node,
        "gpu", "0", "gpu_instance_id", "9"));
    h.pipe(ecc, T0);
    Alert onMig = h.alerts.readValuesToList().get(0);
    assertThat(onMig.getBlastRadius().getGpuList()).containsExactly(node + "/0:gi9");
    assertThat(onMig.getJobs()).singleElement().satisfies(j -> {
      assertThat(j.getJob()).isEqualTo("infer-a");
      assertThat(j.getGpuList()).containsExactly(node + "/0:gi9");
      assertThat(j.getJobGpus()).isEqualTo(1);
    });
    assertThat(onMig.getAnnotations()).containsEntry("jobs", "job infer-a, 1 GPU, no checkpoint yet");

    h.pipe(Fleet.resolved(ecc, T0.plusSeconds(600)), T0.plusSeconds(600));
    h.alerts.readValuesToList();
    h.pipe(Fleet.gpuHot(T0.plusSeconds(1200), node, 0), T0.plusSeconds(1200));
    Alert onGpu = h.alerts.readValuesToList().get(0);
    assertThat(onGpu.getJobs()).extracting(JobImpact::getJob).containsExactlyInAnyOrder("infer-a", "infer-b");
    assertThat(onGpu.getJobs()).flatExtracting(JobImpact::getGpuList).containsExactlyInAnyOrder(node + "/0:gi9", node + "/0:gi10");
  }

  private static io.fleetscope.avro.MigDeviceRef mig(int gpu, int gi) {
    return io.fleetscope.avro.MigDeviceRef.newBuilder().setGpu(gpu).setGpuInstanceId(gi).setComputeInstanceId(0).build();
  }
}
