package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The NVLink scenarios: records per GPU and link where the scenario asks for them, each fault on its link only. */
class NvlinkScenariosTest {
  private static boolean in(long ts, GroundTruthLabel l) {
    return ts >= l.startTs() && ts < l.endTs();
  }

  private static List<NvlinkSample> link(ScenarioRun run, String node, int gpu, int link) {
    return run.of(NvlinkSample.class).stream().filter(s -> s.getNode().equals(node) && s.getGpu() == gpu && s.getLink() == link)
        .sorted(Comparator.comparingLong(NvlinkSample::getTs)).toList();
  }

  @Test
  void scenariosWithoutTheSettingSimulateNoNvlink() {
    assertThat(new ScenarioRun("xid-storm", 2, 1).of(NvlinkSample.class)).isEmpty();
  }

  @Test
  void aDownLinkIsInactiveAndCarriesNoTrafficOnlyInsideItsLabel() {
    ScenarioRun run = new ScenarioRun("nvlink-down", 2, 1);
    GroundTruthLabel l = run.label("NvlinkDown");
    assertThat(l.target()).containsEntry("node", "gpu-0002").containsEntry("gpu", "2");
    List<NvlinkSample> all = run.of(NvlinkSample.class);
    assertThat(all).hasSize(2 * 8 * 4 * 600);
    List<NvlinkSample> down = link(run, "gpu-0002", 2, 3);
    assertThat(down).allSatisfy(s -> assertThat(s.getState()).isEqualTo(in(s.getTs(), l) ? "inactive" : "active"));
    NvlinkSample first = down.stream().filter(s -> in(s.getTs(), l)).findFirst().orElseThrow();
    NvlinkSample last = down.stream().filter(s -> in(s.getTs(), l)).reduce((a, b) -> b).orElseThrow();
    assertThat(last.getTxBytes()).isEqualTo(first.getTxBytes());
    assertThat(all.stream().filter(s -> !(s.getNode().equals("gpu-0002") && s.getGpu() == 2 && s.getLink() == 3)))
        .allSatisfy(s -> assertThat(s.getState()).isEqualTo("active"));
    assertThat(all).allSatisfy(s -> assertThat(s.getReplayErrors()).isZero());
  }

  @Test
  void aRetryingLinkCountsReplaysAtItsRateAndOthersNone() {
    ScenarioRun run = new ScenarioRun("nvlink-errors", 2, 1);
    GroundTruthLabel l = run.label("NvlinkErrorsRising");
    List<NvlinkSample> bad = link(run, "gpu-0002", 5, 1);
    long before = bad.stream().filter(s -> s.getTs() < l.startTs()).mapToLong(NvlinkSample::getReplayErrors).max().orElseThrow();
    long after = bad.get(bad.size() - 1).getReplayErrors();
    assertThat(before).isZero();
    assertThat(after).as("about 40/min for 4 min").isBetween(120L, 200L);
    assertThat(run.of(NvlinkSample.class).stream().filter(s -> !(s.getNode().equals("gpu-0002") && s.getGpu() == 5 && s.getLink() == 1)))
        .allSatisfy(s -> assertThat(s.getReplayErrors()).isZero());
  }

  @Test
  void theLinksCarryTheGpusNvlinkTrafficAndStopWithTheJob() {
    ScenarioRun run = new ScenarioRun("nvlink-job-end", 16, 1);
    assertThat(run.sim.labels()).isEmpty();
    List<NvlinkSample> all = run.of(NvlinkSample.class);
    assertThat(all).allSatisfy(s -> assertThat(s.getState()).isEqualTo("active"));
    // GPU samples carry no NVLink totals, as from the real GPU collectors: the traffic is on the links only
    assertThat(run.of(GpuSample.class)).allSatisfy(g -> {
      assertThat(g.getNvlinkTxBytes()).isNull();
      assertThat(g.getNvlinkRxBytes()).isNull();
    });
    long jobEnd = run.start() + 3 * 60_000;
    long last = all.stream().mapToLong(NvlinkSample::getTs).max().orElseThrow();
    // the GPUs whose job ended, as their own GPU samples show it (idle: about 0 % utilisation from then on; a
    // running job's GPUs average 8 % even checkpointing)
    Map<String, List<GpuSample>> byGpu = run.of(GpuSample.class).stream()
        .collect(Collectors.groupingBy(g -> g.getNode() + "/" + g.getGpu()));
    Set<String> ended = byGpu.entrySet().stream()
        .filter(e -> e.getValue().stream().filter(g -> g.getTs() > jobEnd + 5_000).mapToDouble(GpuSample::getUtilPct)
            .average().orElseThrow() < 3)
        .map(Map.Entry::getKey).collect(Collectors.toSet());
    assertThat(ended).isNotEmpty().hasSizeLessThan(byGpu.size());
    int stopped = 0;
    for (String key : byGpu.keySet()) {
      String node = key.substring(0, key.indexOf('/'));
      int gpu = Integer.parseInt(key.substring(key.indexOf('/') + 1));
      long[] before = new long[4];
      long[] after = new long[4];
      for (int l = 0; l < 4; l++) {
        List<NvlinkSample> s = link(run, node, gpu, l);
        before[l] = txAt(s, jobEnd) - s.get(0).getTxBytes();
        after[l] = s.get(s.size() - 1).getTxBytes() - txAt(s, jobEnd + 5_000);
      }
      // the GPU's traffic is split evenly over its four active links
      assertThat(before).containsOnly(before[0]);
      double gpuBytesPerS = 4.0 * before[0] / ((jobEnd - run.start()) / 1000.0);
      // between the checkpoint (5 GB/s) and the all-reduce (350 GB/s) phases' NVLink rates while the job runs
      assertThat(gpuBytesPerS).as(key).isBetween(5e9, 350e9);
      if (ended.contains(key)) {
        stopped++;
        assertThat(after).as(key).containsOnly(0L);
      } else {
        assertThat(after[0]).as(key).isGreaterThan((long) (5e9 / 4 * (last - jobEnd - 5_000) / 1000));
      }
    }
    assertThat(stopped).isEqualTo(ended.size());
  }

  /** A link's tx counter in its last sample at or before {@code ts}. */
  private static long txAt(List<NvlinkSample> series, long ts) {
    return series.stream().filter(s -> s.getTs() <= ts).reduce((a, b) -> b).orElseThrow().getTxBytes();
  }
}
