package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.catalog.GpuCatalog;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.Thermal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The job lifecycle and the benign thermal scenarios: an idle GPU settles at coolant + R * idle power,
 * a job start warms it towards its loaded steady state with the GPU time constant and no overshoot,
 * a job stop cools it back, a hot-but-flat GPU stays below its limits; the allocation records and
 * checkpoints follow the job.
 */
class JobLifecycleTest {
  private static final double SLOWDOWN = GpuCatalog.H200_SXM.slowdownTempC();
  private static final double MAX_OP = GpuCatalog.H200_SXM.maxOperatingTempC();
  private static final long MIN = 60_000;

  private static final String START_AT_2M = """
      name: start-at-2m
      duration: 10m
      faults:
        - {type: job_start, target: {job: 0}, start: 2m}
      """;

  private static final String STOP_AT_3M = """
      name: stop-at-3m
      duration: 10m
      faults:
        - {type: job_stop, target: {job: 1}, start: 3m}
      """;

  @Test
  void idleGpusSettleAtIdleTemperatureThenWarmWithTheGpuTimeConstantWithoutOvershoot() {
    ScenarioRun run = new ScenarioRun(ScenarioRun.yaml(START_AT_2M), 8, 7);
    long t0 = run.start() + 2 * MIN;
    List<GpuSample> before = run.gpu(s -> s.getTs() < t0);
    assertThat(before).hasSize(64 * 120).allSatisfy(s -> {
      assertThat(s.getTempC()).isBetween(30.0, 40.0);
      assertThat(s.getPowerW()).isLessThan(100.0);
      assertThat(s.getUtilPct()).isLessThan(5.0);
    });
    // the first checkpoint comes one interval after the start, so [t0, t0 + 4m30s) is pure training
    Map<String, TreeMap<Long, Double>> temps = byGpu(run.gpu(s -> s.getTs() < t0 + 270_000));
    assertThat(temps).hasSize(64);
    temps.forEach((gpu, series) -> {
      double idle = mean(series.subMap(t0 - 30_000, t0));
      double loaded = mean(series.subMap(t0 + 180_000, t0 + 270_000));
      assertThat(loaded - idle).as(gpu).isGreaterThan(20);
      // first-order response: 63% of the step after one time constant, 95% after three
      double atTau = mean(series.subMap(t0 + (long) (Thermal.GPU_TAU_S * 1000) - 2000,
          t0 + (long) (Thermal.GPU_TAU_S * 1000) + 3000));
      assertThat((atTau - idle) / (loaded - idle)).as(gpu).isBetween(0.5, 0.75);
      double at3Tau = mean(series.subMap(t0 + (long) (3 * Thermal.GPU_TAU_S * 1000) - 2000,
          t0 + (long) (3 * Thermal.GPU_TAU_S * 1000) + 3000));
      assertThat((at3Tau - idle) / (loaded - idle)).as(gpu).isBetween(0.88, 1.02);
      // never above the loaded steady state by more than the phases' ripple and the reading noise
      assertThat(series.tailMap(t0).values().stream().mapToDouble(Double::doubleValue).max().orElseThrow())
          .as(gpu).isLessThanOrEqualTo(loaded + 2.5);
    });
    // allocations: none at the start, the job on every node from t0
    List<JobAllocations> jobs = run.of(JobAllocations.class);
    assertThat(jobs.stream().filter(j -> j.getTs() == run.start())).hasSize(8)
        .allSatisfy(j -> assertThat(j.getAllocations()).isEmpty());
    assertThat(jobs.stream().filter(j -> j.getTs() == t0)).hasSize(8)
        .allSatisfy(j -> assertThat(j.getAllocations()).singleElement()
            .satisfies(a -> {
              assertThat(a.getJob()).isEqualTo("job-001");
              assertThat(a.getGpus()).hasSize(8);
            }));
    assertThat(jobs).hasSize(16);
    // no checkpoint while idle; the first one an interval after the start
    assertThat(run.of(CheckpointEvent.class)).isNotEmpty()
        .allSatisfy(c -> assertThat(c.getTs()).isGreaterThanOrEqualTo(t0 + 5 * MIN));
  }

  @Test
  void aStoppedJobsGpusCoolToIdleKeepReportingAndLeaveTheJob() {
    ScenarioRun run = new ScenarioRun(ScenarioRun.yaml(STOP_AT_3M), 16, 4);
    long t0 = run.start() + 3 * MIN;
    List<GpuSample> stopped = run.gpu(s -> s.getNode().compareTo("gpu-0009") >= 0);
    List<GpuSample> running = run.gpu(s -> s.getNode().compareTo("gpu-0009") < 0);
    assertThat(stopped).hasSize(64 * 600);
    assertThat(stopped.stream().filter(s -> s.getTs() < t0).mapToDouble(GpuSample::getTempC).min().orElseThrow())
        .isGreaterThan(45);
    assertThat(stopped.stream().filter(s -> s.getTs() >= t0 + 5 * (long) (Thermal.GPU_TAU_S * 1000)))
        .allSatisfy(s -> {
          assertThat(s.getTempC()).isBetween(30.0, 40.0);
          assertThat(s.getPowerW()).isLessThan(100.0);
        });
    // cooling is monotonic apart from the reading noise: each 10 s mean at most that of the 10 s before
    byGpu(stopped).forEach((gpu, series) -> {
      for (long w = t0; w < t0 + 150_000; w += 10_000) {
        assertThat(mean(series.subMap(w + 10_000, w + 20_000))).as(gpu + " at " + w)
            .isLessThanOrEqualTo(mean(series.subMap(w, w + 10_000)) + 0.5);
      }
    });
    assertThat(running.stream().filter(s -> s.getTs() >= t0 + 2 * MIN).mapToDouble(GpuSample::getTempC).average()
        .orElseThrow()).isGreaterThan(55);
    List<JobAllocations> left = run.of(JobAllocations.class).stream().filter(j -> j.getTs() == t0).toList();
    assertThat(left).hasSize(8).allSatisfy(j -> {
      assertThat(j.getNode().compareTo("gpu-0009")).isGreaterThanOrEqualTo(0);
      assertThat(j.getAllocations()).isEmpty();
    });
    assertThat(run.of(CheckpointEvent.class).stream().filter(c -> c.getJob().equals("job-002"))
        .filter(c -> c.getStatus().equals("started"))).allSatisfy(c -> assertThat(c.getTs()).isLessThan(t0));
  }

  @Test
  void hotGpuRunsFlatAFewDegreesBelowSlowdownWithoutThrottling() {
    ScenarioRun run = new ScenarioRun("hot-gpu-flat", 8, 1);
    assertThat(run.sim.labels()).isEmpty();
    List<GpuSample> hot = run.gpu(s -> s.getNode().equals("gpu-0003") && s.getGpu() == 5);
    List<GpuSample> neighbours = run.gpu(s -> s.getNode().equals("gpu-0003") && s.getGpu() != 5);
    assertThat(hot).hasSize(600).allSatisfy(s -> {
      assertThat(s.getTempC()).isLessThan(MAX_OP);
      assertThat(s.getThrottleReasons()).isZero();
    });
    // while training (not in or just after a checkpoint) it sits about 6 C below slowdown, from the first sample
    double[] training = hot.stream().filter(s -> s.getPowerW() > 300).mapToDouble(GpuSample::getTempC).sorted()
        .toArray();
    assertThat(training[training.length / 2]).isBetween(SLOWDOWN - 7, SLOWDOWN - 5);
    assertThat(hot.get(0).getTempC()).isBetween(SLOWDOWN - 8, SLOWDOWN - 4);
    assertThat(neighbours.stream().mapToDouble(GpuSample::getTempC).max().orElseThrow()).isLessThan(SLOWDOWN - 15);
  }

  @Test
  void tenSecondSamplesSeeTheThermalsOfOneSecondOnes() {
    var healthy = ScenarioLoader.load("healthy");
    var fine = new io.fleetscope.loadgen.sim.FleetSimulator(io.fleetscope.loadgen.sim.SimConfig.of(8, healthy, 3)
        .withDisorder(0, 0));
    var coarse = new io.fleetscope.loadgen.sim.FleetSimulator(io.fleetscope.loadgen.sim.SimConfig.of(8, healthy, 3)
        .withDisorder(0, 0).withInterval(10_000));
    Map<String, TreeMap<Long, Double>> f = byGpu(fine.stream().map(r -> r.value())
        .filter(GpuSample.class::isInstance).map(GpuSample.class::cast).toList());
    Map<String, TreeMap<Long, Double>> k = byGpu(coarse.stream().map(r -> r.value())
        .filter(GpuSample.class::isInstance).map(GpuSample.class::cast).toList());
    assertThat(k).hasSize(64);
    k.forEach((gpu, series) -> {
      assertThat(series).hasSize(60);
      // the same readings as 1 s samples at the same instants, but for noise and checkpoints starting up
      // to one interval later: no aliasing of the 5-8 s training steps into 10 C jumps
      double[] diff = series.entrySet().stream()
          .mapToDouble(e -> Math.abs(e.getValue() - f.get(gpu).get(e.getKey()))).sorted().toArray();
      assertThat(diff[diff.length / 2]).as(gpu).isLessThanOrEqualTo(1.0);
    });
  }

  @Test
  void theJobStartScenarioLaunchesOneThousandGpusAtOnce() {
    var sc = ScenarioLoader.load("job-start");
    assertThat(sc.minNodes()).isEqualTo(125);
    assertThat(sc.faults()).singleElement().satisfies(f -> assertThat(f.type().yamlName()).isEqualTo("job_start"));
    var sim = new io.fleetscope.loadgen.sim.FleetSimulator(
        io.fleetscope.loadgen.sim.SimConfig.of(125, sc, 1).withDuration(java.time.Duration.ofSeconds(5)));
    assertThat(sim.topology().jobs()).singleElement().satisfies(j -> assertThat(j.nodes()).hasSize(125));
    assertThat(sim.labels()).isEmpty();
  }

  private static Map<String, TreeMap<Long, Double>> byGpu(List<GpuSample> samples) {
    return samples.stream().collect(Collectors.groupingBy(s -> s.getNode() + "/" + s.getGpu(),
        Collectors.toMap(GpuSample::getTs, GpuSample::getTempC, (a, b) -> b, TreeMap::new)));
  }

  private static double mean(Map<Long, Double> m) {
    return m.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }
}
