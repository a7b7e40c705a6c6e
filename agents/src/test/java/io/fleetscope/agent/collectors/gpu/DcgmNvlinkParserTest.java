package io.fleetscope.agent.collectors.gpu;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.NvlinkSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** dcgm-exporter's NVLink fields -> fleet.nvlink.v1 (fixtures/SOURCES.md, section "dcgm-exporter/: NVLink fields"). */
class DcgmNvlinkParserTest {
  static List<NvlinkSample> parse(String fixture) throws Exception {
    return DcgmNvlinkParser.parse(DcgmExporterParser.group(TestData.read(fixture)), CTX);
  }

  @Test
  void a100ProfilingTotalsAreOneAllLinksRecordPerGpu() throws Exception {
    List<NvlinkSample> s = parse("dcgm-exporter/dcgm-issue-149-a100-nvlink-prof-excerpt.txt");
    assertThat(s).extracting(NvlinkSample::getGpu).containsExactly(0, 1, 2, 3);
    assertThat(s).allSatisfy(r -> {
      assertThat(r.getLink()).isEqualTo(DcgmNvlinkParser.ALL_LINKS);
      assertThat(r.getSource()).isEqualTo("dcgm-exporter");
      assertThat(r.getTxBytesPerS()).isEqualTo(0.0);
      assertThat(r.getRxBytesPerS()).isNull(); // not exported in the capture
      assertThat(r.getState()).isNull();
      assertThat(r.getTxBytes()).isNull();
      assertThat(r.getReplayErrors()).isNull();
    });
    assertThat(s.get(3).getUuid()).isEqualTo("GPU-7843f55f-a15b-1d4c-229c-39b5c439bd5e");
  }

  @Test
  void gpuWithoutNvlinkFieldsHasNoRecord() throws Exception {
    // the T4 capture exports only DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL, which counts both directions together
    assertThat(parse("dcgm-exporter/datadog-dcgm-tests-fixtures-metrics.txt")).isEmpty();
  }

  @Test
  void perLinkFieldsGoToTheirLinkAndTheTotalKeepsOnlyWhatNoLinkReports() throws Exception {
    List<NvlinkSample> s = parse("dcgm-exporter/dcgm-nvlink-per-link-reconstructed.txt");
    assertThat(s).extracting(r -> r.getGpu() + "/" + r.getLink()).containsExactly("0/0", "0/1", "1/-1");
    NvlinkSample l0 = s.get(0);
    assertThat(l0.getCrcFlitErrors()).isEqualTo(3L);
    assertThat(l0.getCrcDataErrors()).isEqualTo(1L);
    assertThat(l0.getReplayErrors()).isEqualTo(12L);
    assertThat(l0.getRecoveryErrors()).isNull();
    assertThat(l0.getCrcErrors()).isNull();
    assertThat(l0.getTxBytesPerS()).isEqualTo(21474836480.0);
    assertThat(l0.getRxBytesPerS()).isEqualTo(20401094656.0);
    NvlinkSample l1 = s.get(1);
    assertThat(l1.getCrcFlitErrors()).isZero();
    assertThat(l1.getRecoveryErrors()).isEqualTo(2L);
    assertThat(l1.getTxBytesPerS()).isNull(); // DCGM's "not supported" double
    // link 11's replay counter is DCGM's "not supported" integer: no record for link 11
    // GPU 0's totals (replays, tx rate) are reported per link as well: no -1 record for GPU 0
    NvlinkSample gpu1 = s.get(2);
    assertThat(gpu1.getReplayErrors()).isEqualTo(5L);
    assertThat(gpu1.getTxBytesPerS()).isEqualTo(1073741824.0);
    assertThat(gpu1.getUuid()).isEqualTo("GPU-02348a17-a825-300c-0336-48e33d0dadb2");
  }

  @Test
  void aTotalIsKeptForQuantitiesNoLinkReports() {
    String text = String.join("\n",
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_L2{gpu=\"0\",UUID=\"GPU-a\"} 7",
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL{gpu=\"0\",UUID=\"GPU-a\"} 7",
        "DCGM_FI_PROF_NVLINK_RX_BYTES{gpu=\"0\",UUID=\"GPU-a\"} 5.5e9", "");
    List<NvlinkSample> s = DcgmNvlinkParser.parse(DcgmExporterParser.group(text), CTX);
    assertThat(s).extracting(NvlinkSample::getLink).containsExactly(-1, 2);
    assertThat(s.get(0).getCrcFlitErrors()).isNull();
    assertThat(s.get(0).getRxBytesPerS()).isEqualTo(5.5e9);
    assertThat(s.get(1).getCrcFlitErrors()).isEqualTo(7L);
  }
}
