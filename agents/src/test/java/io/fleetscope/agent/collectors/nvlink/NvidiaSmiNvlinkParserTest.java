package io.fleetscope.agent.collectors.nvlink;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.Golden;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.NvlinkSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nvidia-smi nvlink parser over the real captures (fixtures/SOURCES.md, section NVLink). */
class NvidiaSmiNvlinkParserTest {
  static final String H100 = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt";
  static final String H200_MIG = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200-mig__590.48.01.txt";
  static final String V100_E = "nvidia-smi/nvlink/scuffedsquared-v100-sxm2-nvlink-e.txt";
  static final String H800_S = "nvidia-smi/nvlink/llm-action-h800-nvlink-s.txt";
  static final String H800_GT_IDLE = "nvidia-smi/nvlink/llm-action-h800-nvlink-gt-d-idle.txt";
  static final String H800_GT_TRAINING = "nvidia-smi/nvlink/llm-action-h800-nvlink-gt-d-training.txt";

  static String h100Status() {
    return TestData.section(H100, "capabilities :: nvlink -s");
  }

  @Test
  void h100StatusHas18ActiveLinks() throws Exception {
    NvidiaSmiNvlinkParser.Result r = NvidiaSmiNvlinkParser.parse(h100Status(), null, null, CTX);
    assertThat(r.migModeGpus()).isEmpty();
    assertThat(r.samples()).hasSize(18);
    assertThat(r.samples()).extracting(NvlinkSample::getLink).containsExactlyElementsOf(
        java.util.stream.IntStream.range(0, 18).boxed().toList());
    assertThat(r.samples()).allSatisfy(s -> {
      assertThat(s.getGpu()).isEqualTo(0);
      assertThat(s.getUuid()).isEqualTo("GPU-00000000-0000-0000-0000-000000000000");
      assertThat(s.getState()).isEqualTo("active");
      assertThat(s.getSpeedGbps()).isEqualTo(26.562);
      assertThat(s.getReplayErrors()).isNull();
      assertThat(s.getTxBytes()).isNull();
    });
    Golden.assertMatches("nvlink/h100-status.jsonl", r.samples());
  }

  @Test
  void anInactiveLinkIsReportedInactiveWithoutSpeed() {
    // edit of the real H100 capture: link 7 as nvidia-smi prints a link that is down
    String edited = h100Status().replace("Link 7: 26.562 GB/s", "Link 7: <inactive>");
    List<NvlinkSample> s = NvidiaSmiNvlinkParser.parse(edited, null, null, CTX).samples();
    assertThat(s).hasSize(18);
    assertThat(s.get(7).getState()).isEqualTo("inactive");
    assertThat(s.get(7).getSpeedGbps()).isNull();
    assertThat(s).filteredOn(x -> "active".equals(x.getState())).hasSize(17);
  }

  @Test
  void aGpuInMigModeHasNoLinksAndIsNamed() {
    NvidiaSmiNvlinkParser.Result r = NvidiaSmiNvlinkParser.parse(TestData.section(H200_MIG, "capabilities :: nvlink -s"), null, null, CTX);
    assertThat(r.samples()).isEmpty();
    assertThat(r.migModeGpus()).containsExactly(0);
  }

  @Test
  void v100ErrorCountersPerLink() throws Exception {
    List<NvlinkSample> s = NvidiaSmiNvlinkParser.parse(null, TestData.read(V100_E), null, CTX).samples();
    assertThat(s).hasSize(12);
    assertThat(s).extracting(NvlinkSample::getGpu).containsOnly(0, 2);
    NvlinkSample g0l3 = s.get(3);
    assertThat(g0l3.getGpu()).isEqualTo(0);
    assertThat(g0l3.getLink()).isEqualTo(3);
    assertThat(g0l3.getReplayErrors()).isEqualTo(211L);
    assertThat(g0l3.getRecoveryErrors()).isEqualTo(0L);
    assertThat(g0l3.getCrcErrors()).isEqualTo(0L);
    NvlinkSample g2l0 = s.get(6);
    assertThat(g2l0.getGpu()).isEqualTo(2);
    assertThat(g2l0.getUuid()).isEqualTo("GPU-926a4a2e-2909-4d8a-fb23-6d90ed5bcb14");
    assertThat(g2l0.getReplayErrors()).isEqualTo(2L);
    assertThat(g2l0.getCrcErrors()).isEqualTo(65535L);
    // nvidia-smi does not split CRC errors into FLIT and data: those fields are DCGM's
    assertThat(s).allSatisfy(x -> {
      assertThat(x.getCrcFlitErrors()).isNull();
      assertThat(x.getCrcDataErrors()).isNull();
      assertThat(x.getState()).isNull();
    });
    Golden.assertMatches("nvlink/v100-errors.jsonl", s);
  }

  @Test
  void h800StatusAndThroughputMergePerLinkInBytes() throws Exception {
    List<NvlinkSample> s = NvidiaSmiNvlinkParser.parse(TestData.read(H800_S), null, TestData.read(H800_GT_TRAINING), CTX).samples();
    // the page shows GPUs 0, 1 and 7 (it elides 2-6), 8 links each; throughput was taken for GPU 0 only
    assertThat(s).hasSize(24);
    assertThat(s).extracting(NvlinkSample::getGpu).containsOnly(0, 1, 7);
    NvlinkSample g0l0 = s.get(0);
    assertThat(g0l0.getState()).isEqualTo("active");
    assertThat(g0l0.getTxBytes()).isEqualTo(1390774681L * 1024);
    assertThat(g0l0.getRxBytes()).isEqualTo(1387831436L * 1024);
    assertThat(s).filteredOn(x -> x.getGpu() == 1).allSatisfy(x -> assertThat(x.getTxBytes()).isNull());
    Golden.assertMatches("nvlink/h800-status-throughput.jsonl", s);
  }

  @Test
  void h800TrainingMovedBytesOverEveryLinkSinceIdle() {
    List<NvlinkSample> idle = NvidiaSmiNvlinkParser.parse(null, null, TestData.read(H800_GT_IDLE), CTX).samples();
    List<NvlinkSample> busy = NvidiaSmiNvlinkParser.parse(null, null, TestData.read(H800_GT_TRAINING), CTX).samples();
    assertThat(idle).hasSize(8);
    assertThat(busy).hasSize(8);
    for (int i = 0; i < 8; i++) {
      long delta = busy.get(i).getTxBytes() - idle.get(i).getTxBytes();
      assertThat(delta).as("link %d", i).isGreaterThan(1_000_000_000_000L);
    }
  }

  @Test
  void outputWithoutLinksGivesNothing() {
    assertThat(NvidiaSmiNvlinkParser.parse("", "", "", CTX).samples()).isEmpty();
    assertThat(NvidiaSmiNvlinkParser.parse("Link 0: 26.562 GB/s\n", null, null, CTX).samples())
        .as("a link line before any GPU header is not attributed to a guessed GPU").isEmpty();
  }
}
