package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import java.util.Comparator;
import java.util.List;
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
    // the four links' bytes grow as the GPU's nvlink_tx_bytes does
    GpuSample g0 = run.of(GpuSample.class).stream().filter(s -> s.getNode().equals("gpu-0001") && s.getGpu() == 0)
        .min(Comparator.comparingLong(GpuSample::getTs)).orElseThrow();
    GpuSample g1 = run.of(GpuSample.class).stream().filter(s -> s.getNode().equals("gpu-0001") && s.getGpu() == 0)
        .max(Comparator.comparingLong(GpuSample::getTs)).orElseThrow();
    long linkGrowth = 0;
    for (int l = 0; l < 4; l++) {
      List<NvlinkSample> s = link(run, "gpu-0001", 0, l);
      linkGrowth += s.get(s.size() - 1).getTxBytes() - s.get(0).getTxBytes();
    }
    assertThat((double) linkGrowth).isCloseTo((double) (g1.getNvlinkTxBytes() - g0.getNvlinkTxBytes()),
        org.assertj.core.data.Percentage.withPercentage(1));
  }
}
