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
  /** The project's own H200 captures, driver 580.159.04, one file per command (see fixtures/SOURCES.md). */
  static final String H200_580 = "nvidia-smi/h200-580.159.04/";

  static Stream<Arguments> csvCaptures() {
    return Stream.of(
        Arguments.of(H200, "idle", "nvidia-smi-csv/h200-idle.jsonl"),
        Arguments.of(H200, "load", "nvidia-smi-csv/h200-load.jsonl"),
        Arguments.of(H100, "idle", "nvidia-smi-csv/h100-idle.jsonl"),
        Arguments.of(H100, "load", "nvidia-smi-csv/h100-load.jsonl"),
        Arguments.of(H200_MIG, "idle", "nvidia-smi-csv/h200-mig-idle.jsonl"),
        Arguments.of(H200_MIG, "load", "nvidia-smi-csv/h200-mig-load.jsonl"),
        Arguments.of(H200_580 + "query-gpu-idle.csv", WHOLE_FILE, "nvidia-smi-csv/h200-580-idle.jsonl"),
        Arguments.of(H200_580 + "query-gpu-load.csv", WHOLE_FILE, "nvidia-smi-csv/h200-580-load.jsonl"));
  }

  /** Phase of a capture that is a single command's output: the whole file. */
  static final String WHOLE_FILE = "(whole file)";

  static String csvText(String capture, String phase) {
    return WHOLE_FILE.equals(phase) ? TestData.read(capture) : TestData.section(capture, phase + " :: query-gpu");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("csvCaptures")
  void nvidiaSmiCsv(String capture, String phase, String golden) throws Exception {
    List<GpuSample> records = NvidiaSmiCsvParser.parse(csvText(capture, phase), CTX);
    assertThat(records).hasSize(1);
    Golden.assertMatches(golden, records);
  }

  /** Base of the expected records of the driver-580 H200 captures: what every source says alike. */
  static GpuSample.Builder h200x580() {
    return GpuSample.newBuilder()
        .setTs(TestData.TS).setCluster("test-cluster").setNode("node-a").setAgentSeq(0L)
        .setGpu(0).setUuid("GPU-f0e2a70e-376b-7972-5e20-a1e690804d84").setModel("NVIDIA H200").setPciBusId("00000000:00:06.0")
        .setPowerLimitW(700.0).setMemClockMhz(3201.0).setMemTotalMib(143771.0)
        .setEccSbeTotal(0L).setEccDbeTotal(0L).setRetiredPagesSbe(null).setRetiredPagesDbe(null)
        .setRowRemapPending(false).setRowRemapFailure(false).setRemappedRowsCorrectable(0L).setRemappedRowsUncorrectable(0L)
        .setNvlinkTxBytes(null).setNvlinkRxBytes(null);
  }

  @Test
  void nvidiaSmiCsvH200Driver580LoadCompleteRecord() {
    // 0, GPU-f0e2..., NVIDIA H200, 00000000:00:06.0, 61, 50, 692.94 W, 700.00 W, 1455 MHz, 3201 MHz, 100 %, 25 %,
    // 1139 MiB, 143771 MiB, 0x0000000000000004, 0, 0, [N/A], [N/A], 0, 0, No, No
    GpuSample expected = h200x580().setSource("nvidia-smi-csv")
        .setTempC(61.0).setMemTempC(50.0).setPowerW(692.94).setSmClockMhz(1455.0)
        .setUtilPct(100.0).setMemUtilPct(25.0).setMemUsedMib(1139.0)
        .setThrottleReasons(0x4L) // SW power cap, the whole load phase (700 W limit)
        .setPcieReplayTotal(null) // not in the default CSV fields
        .build();
    assertThat(NvidiaSmiCsvParser.parse(TestData.read(H200_580 + "query-gpu-load.csv"), CTX)).containsExactly(expected);
  }

  @Test
  void nvidiaSmiCsvH200Driver580IdleCompleteRecord() {
    // ..., 35, 36, 78.70 W, 700.00 W, 345 MHz, 3201 MHz, 0 %, 0 %, 0 MiB, 143771 MiB, 0x0000000000000001, 0, 0, [N/A], [N/A], 0, 0, No, No
    GpuSample expected = h200x580().setSource("nvidia-smi-csv")
        .setTempC(35.0).setMemTempC(36.0).setPowerW(78.70).setSmClockMhz(345.0)
        .setUtilPct(0.0).setMemUtilPct(0.0).setMemUsedMib(0.0)
        .setThrottleReasons(0x1L) // GPU idle
        .setPcieReplayTotal(null)
        .build();
    assertThat(NvidiaSmiCsvParser.parse(TestData.read(H200_580 + "query-gpu-idle.csv"), CTX)).containsExactly(expected);
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
        Arguments.of("nvidia-smi/netdata-a100-sxm4-mig.xml", "nvidia-smi-xml/a100-sxm4-mig-v11.jsonl", 1),
        Arguments.of(H200_580 + "q-x-idle.xml", "nvidia-smi-xml/h200-580-idle-v13.jsonl", 1),
        Arguments.of(H200_580 + "q-x-load.xml", "nvidia-smi-xml/h200-580-load-v13.jsonl", 1));
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
  void nvidiaSmiXmlH200Driver580LoadCompleteRecords() throws Exception {
    NvidiaSmiXmlParser.Gpu g = NvidiaSmiXmlParser.parse(TestData.read(H200_580 + "q-x-load.xml"), CTX).get(0);
    GpuSample expected = h200x580().setSource("nvidia-smi-xml")
        .setTempC(61.0).setMemTempC(50.0)
        // the XML has no <power_draw>: instant_power_draw 704.81 W is taken; average_power_draw is 692.94 W,
        // which is what the CSV's power.draw reports on this driver
        .setPowerW(704.81)
        .setSmClockMhz(1455.0).setUtilPct(100.0).setMemUtilPct(25.0).setMemUsedMib(1139.0)
        .setThrottleReasons(0x4L) // clocks_event_reason_sw_power_cap Active, all others Not Active
        .setPcieReplayTotal(0L)
        .build();
    assertThat(g.sample()).isEqualTo(expected);
    assertThat(g.info()).isEqualTo(GpuInfo.newBuilder()
        .setIndex(0).setUuid("GPU-f0e2a70e-376b-7972-5e20-a1e690804d84").setModel("NVIDIA H200")
        .setTdpW(700.0)
        // driver 580 prints no absolute thresholds, only T.Limit offsets: left null, not derived
        .setSlowdownTempC(null).setShutdownTempC(null).setMemMaxTempC(null)
        .setHbmGb(140.4).setPciBusId("00000000:00:06.0")
        .build());
    assertThat(g.tlimit()).isEqualTo(new NvidiaSmiXmlParser.TLimit(20.0, -2.0, -8.0, 0.0, 0.0));
    assertThat(g.tlimit().slowdownMarginC()).isEqualTo(22.0); // 20 - (-2)
    assertThat(g.tlimit().shutdownMarginC()).isEqualTo(28.0); // 20 - (-8)
    assertThat(g.limitsOnlyRelativeToTLimit()).containsExactly("slowdown_temp_c", "shutdown_temp_c", "mem_max_temp_c");
  }

  @Test
  void nvidiaSmiXmlH200Driver580LimitsDoNotFollowTheLoad() throws Exception {
    // gpu_temp + gpu_temp_tlimit is 35 + 52 = 87 idle but 61 + 20 = 81 under load (T.Limit is read on the
    // hottest sensor): an absolute limit derived from it would move with the load. The GpuInfo must not.
    NvidiaSmiXmlParser.Gpu idle = NvidiaSmiXmlParser.parse(TestData.read(H200_580 + "q-x-idle.xml"), CTX).get(0);
    NvidiaSmiXmlParser.Gpu load = NvidiaSmiXmlParser.parse(TestData.read(H200_580 + "q-x-load.xml"), CTX).get(0);
    assertThat(idle.sample().getTempC() + idle.tlimit().marginC()).isNotEqualTo(load.sample().getTempC() + load.tlimit().marginC());
    assertThat(idle.info()).isEqualTo(load.info());
    assertThat(idle.tlimit().slowdownMarginC()).isEqualTo(54.0); // 52 - (-2)
  }

  static Stream<Arguments> xmlTLimits() {
    return Stream.of(
        // absolute thresholds only; gpu_temp_tlimit N/A or absent
        Arguments.of("nvidia-smi/telegraf-a100-sxm4-v12.xml", new NvidiaSmiXmlParser.TLimit(null, null, null, null, null), List.of()),
        Arguments.of("nvidia-smi/telegraf-a10g.xml", new NvidiaSmiXmlParser.TLimit(null, null, null, null, null), List.of()),
        Arguments.of("nvidia-smi/telegraf-tesla-t4.xml", new NvidiaSmiXmlParser.TLimit(null, null, null, null, null), List.of()),
        Arguments.of("nvidia-smi/telegraf-rtx-3080-v13.xml", new NvidiaSmiXmlParser.TLimit(null, null, null, null, null), List.of()),
        Arguments.of("nvidia-smi/netdata-a100-sxm4-mig.xml", new NvidiaSmiXmlParser.TLimit(null, null, null, null, null), List.of()),
        // T.Limit only (driver 595 on Ada, 580 on H200)
        Arguments.of("nvidia-smi/telegraf-rtx-4000-sff-ada-v13.xml", new NvidiaSmiXmlParser.TLimit(49.0, -2.0, -7.0, 0.0, null),
            List.of("slowdown_temp_c", "shutdown_temp_c")),
        Arguments.of(H200_580 + "q-x-idle.xml", new NvidiaSmiXmlParser.TLimit(52.0, -2.0, -8.0, 0.0, 0.0),
            List.of("slowdown_temp_c", "shutdown_temp_c", "mem_max_temp_c")),
        Arguments.of(H200_580 + "q-x-load.xml", new NvidiaSmiXmlParser.TLimit(20.0, -2.0, -8.0, 0.0, 0.0),
            List.of("slowdown_temp_c", "shutdown_temp_c", "mem_max_temp_c")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("xmlTLimits")
  void nvidiaSmiXmlTLimit(String capture, NvidiaSmiXmlParser.TLimit expected, List<String> onlyRelative) throws Exception {
    NvidiaSmiXmlParser.Gpu g = NvidiaSmiXmlParser.parse(TestData.read(capture), CTX).get(0);
    assertThat(g.tlimit()).isEqualTo(expected);
    assertThat(g.limitsOnlyRelativeToTLimit()).isEqualTo(onlyRelative);
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
    // DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION 128996013 (mJ since driver load) in the capture
    assertThat(first.getEnergyMj()).isEqualTo(128_996_013L);
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

  @Test
  void dcgmiDmonEnergyCounterIsAWholeNumber() {
    // NOT a capture: field 156 (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, short name TOTEC, mJ) as DCGM's field table names it
    String text = """
        # Entity  TMPTR  POWER  TOTEC
              ID      C      W     mJ
            GPU 0     64 512.30  9876543210123
            GPU 1     61 498.00  N/A
        """;
    List<GpuSample> s = DcgmiDmonParser.parse(text, DcgmiDmonParser.DEFAULT_TAGS, CTX);
    assertThat(s.get(0).getEnergyMj()).isEqualTo(9_876_543_210_123L);
    assertThat(s.get(1).getEnergyMj()).isNull();
    assertThat(s.get(0).getPowerW()).isEqualTo(512.3);
  }
}
