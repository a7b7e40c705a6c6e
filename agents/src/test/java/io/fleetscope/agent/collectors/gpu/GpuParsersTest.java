package io.fleetscope.agent.collectors.gpu;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.testing.Golden;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuSample;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every GPU parser over every real capture, comparing the complete record set with its golden file. */
class GpuParsersTest {

  static final String H200 = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200__590.48.01.txt";
  static final String H100 = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt";
  static final String H200_MIG = "nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200-mig__590.48.01.txt";

  static Stream<Arguments> csvCaptures() {
    return Stream.of(
        Arguments.of(H200, "idle", "nvidia-smi-csv/h200-idle.jsonl"),
        Arguments.of(H200, "load", "nvidia-smi-csv/h200-load.jsonl"),
        Arguments.of(H100, "idle", "nvidia-smi-csv/h100-idle.jsonl"),
        Arguments.of(H100, "load", "nvidia-smi-csv/h100-load.jsonl"),
        Arguments.of(H200_MIG, "idle", "nvidia-smi-csv/h200-mig-idle.jsonl"),
        Arguments.of(H200_MIG, "load", "nvidia-smi-csv/h200-mig-load.jsonl"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("csvCaptures")
  void nvidiaSmiCsv(String capture, String phase, String golden) throws Exception {
    List<GpuSample> records = NvidiaSmiCsvParser.parse(TestData.section(capture, phase + " :: query-gpu"), CTX);
    assertThat(records).hasSize(1);
    Golden.assertMatches(golden, records);
  }

  @Test
  void nvidiaSmiCsvH200IdleValuesAsPrinted() {
    // the row reads: ... 0x0000000000000001 (active reasons) ... 143771 MiB, 614 MiB, 0 MiB ... 28, 59, 32 ... 77.71 W ... 700.00 W
    GpuSample s = NvidiaSmiCsvParser.parse(TestData.section(H200, "idle :: query-gpu"), CTX).get(0);
    assertThat(s.getGpu()).isZero();
    assertThat(s.getModel()).isEqualTo("NVIDIA H200");
    assertThat(s.getPciBusId()).isEqualTo("00000000:83:00.0");
    assertThat(s.getThrottleReasons()).isEqualTo(0x1L); // GPU idle
    assertThat(s.getMemTotalMib()).isEqualTo(143771.0);
    assertThat(s.getMemUsedMib()).isEqualTo(0.0);
    assertThat(s.getTempC()).isEqualTo(28.0);
    assertThat(s.getMemTempC()).isEqualTo(32.0);
    assertThat(s.getPowerW()).isEqualTo(77.71);
    assertThat(s.getPowerLimitW()).isEqualTo(700.0);
    assertThat(s.getSmClockMhz()).isEqualTo(345.0);
    assertThat(s.getMemClockMhz()).isEqualTo(3201.0);
    assertThat(s.getEccSbeTotal()).isZero();
    assertThat(s.getRowRemapPending()).isFalse();
  }

  @Test
  void nvidiaSmiCsvNeedsIndexColumn() {
    assertThatThrownBy(() -> NvidiaSmiCsvParser.parse("name, temperature.gpu\nNVIDIA H200, 28\n", CTX))
        .hasMessageContaining("'index'");
  }

  static Stream<Arguments> xmlCaptures() {
    return Stream.of(
        Arguments.of("nvidia-smi/telegraf-a100-sxm4-v12.xml", "nvidia-smi-xml/a100-sxm4-v12.jsonl", 1),
        Arguments.of("nvidia-smi/telegraf-a10g.xml", "nvidia-smi-xml/a10g-v11.jsonl", 1),
        Arguments.of("nvidia-smi/telegraf-tesla-t4.xml", "nvidia-smi-xml/tesla-t4-v11.jsonl", 1),
        Arguments.of("nvidia-smi/telegraf-rtx-3080-v13.xml", "nvidia-smi-xml/rtx-3080-v13.jsonl", 1),
        Arguments.of("nvidia-smi/telegraf-rtx-4000-sff-ada-v13.xml", "nvidia-smi-xml/rtx-4000-sff-ada-v13.jsonl", 1),
        Arguments.of("nvidia-smi/netdata-a100-sxm4-mig.xml", "nvidia-smi-xml/a100-sxm4-mig-v11.jsonl", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("xmlCaptures")
  void nvidiaSmiXml(String capture, String golden, int gpus) throws Exception {
    List<NvidiaSmiXmlParser.Gpu> parsed = NvidiaSmiXmlParser.parse(TestData.read(capture), CTX);
    assertThat(parsed).hasSize(gpus);
    Golden.assertMatches(golden, parsed.stream().map(NvidiaSmiXmlParser.Gpu::sample).toList());
    Golden.assertMatches(golden.replace(".jsonl", ".gpuinfo.jsonl"), parsed.stream().map(NvidiaSmiXmlParser.Gpu::info).toList());
  }

  @Test
  void nvidiaSmiXmlA100ValuesAsPrinted() throws Exception {
    NvidiaSmiXmlParser.Gpu g = NvidiaSmiXmlParser.parse(TestData.read("nvidia-smi/telegraf-a100-sxm4-v12.xml"), CTX).get(0);
    GpuSample s = g.sample();
    GpuInfo i = g.info();
    assertThat(s.getPciBusId()).isEqualTo("00000000:01:00.0");
    assertThat(s.getModel()).isEqualTo("NVIDIA A100-SXM4-80GB");
    assertThat(s.getTempC()).isEqualTo(27.0);
    assertThat(s.getMemTempC()).isEqualTo(44.0);
    assertThat(s.getPowerW()).isEqualTo(67.03);
    assertThat(s.getPowerLimitW()).isEqualTo(500.0);
    assertThat(s.getPcieReplayTotal()).isZero();
    assertThat(i.getSlowdownTempC()).isEqualTo(89.0);
    assertThat(i.getShutdownTempC()).isEqualTo(92.0);
    assertThat(i.getTdpW()).isEqualTo(500.0);
  }

  @Test
  void dcgmExporterMetrics() throws Exception {
    List<GpuSample> records = DcgmExporterParser.parse(TestData.read("dcgm-exporter/datadog-dcgm-tests-fixtures-metrics.txt"), CTX);
    // three devices in the capture: two Tesla T4 blocks (different UUIDs) and an A10G line, all gpu="0"
    assertThat(records).extracting(GpuSample::getUuid)
        .containsExactly("GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e", "GPU-9ef1b6d0-3643-5dd7-b823-c0ec20dcf2d5", "GPU-abc");
    GpuSample first = records.get(0);
    assertThat(first.getSmClockMhz()).isEqualTo(300.0);
    assertThat(first.getMemClockMhz()).isEqualTo(405.0);
    assertThat(first.getTempC()).isEqualTo(25.0);
    assertThat(first.getPowerW()).isEqualTo(8.969);
    assertThat(first.getMemUsedMib()).isEqualTo(0.0);
    assertThat(first.getPcieReplayTotal()).isZero();
    Golden.assertMatches("dcgm-exporter/datadog-metrics.jsonl", records);
  }

  @Test
  void promTextRejectsGarbageWithLineNumber() {
    assertThatThrownBy(() -> PromText.parse("# HELP x y\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} hot\n"))
        .hasMessageContaining("line 2").hasMessageContaining("not a number");
  }

  @Test
  void dcgmiDmonDocumentedFormat() {
    // NOT a capture (none was available): the column layout DCGM documents for `dcgmi dmon -e 150,155,203`
    String text = """
        # Entity  TMPTR  POWER  GPUTL
              ID      C      W      %
            GPU 0     34  64.52     17
            GPU 1    N/A  61.10      0
        """;
    List<GpuSample> s = DcgmiDmonParser.parse(text, DcgmiDmonParser.DEFAULT_TAGS, CTX);
    assertThat(s).hasSize(2);
    assertThat(s.get(0).getGpu()).isZero();
    assertThat(s.get(0).getTempC()).isEqualTo(34.0);
    assertThat(s.get(0).getPowerW()).isEqualTo(64.52);
    assertThat(s.get(0).getUtilPct()).isEqualTo(17.0);
    assertThat(s.get(1).getTempC()).isNull();
    assertThat(s.get(1).getSource()).isEqualTo("dcgmi-dmon");
  }
}
