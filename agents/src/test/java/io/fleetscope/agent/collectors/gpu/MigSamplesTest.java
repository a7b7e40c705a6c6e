package io.fleetscope.agent.collectors.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MIG devices reported per device, beside their physical GPU's sample, from the real MIG captures. */
class MigSamplesTest {
  static final String A100_MIG_XML = "nvidia-smi/netdata-a100-sxm4-mig.xml";
  static final String A100_80GB_MIG_XML = "nvidia-smi/telegraf-a100-sxm4-v12.xml";
  static final String T4_XML = "nvidia-smi/telegraf-tesla-t4.xml";
  static final String H200_MIG = NvidiaSmiListParserTest.H200_MIG;
  static final String DCGM_MIG = "dcgm-exporter/nvidia-cloud-native-docs-a100-mig.txt";

  @TempDir Path dir;

  @Test
  void anA100InMigModeGivesOneSamplePerMigDeviceAndKeepsItsGpuSample() throws Exception {
    List<NvidiaSmiXmlParser.Gpu> gpus = NvidiaSmiXmlParser.parse(TestData.read(A100_MIG_XML), TestData.CTX);
    assertThat(gpus).hasSize(1);
    GpuSample gpu = gpus.get(0).sample();
    assertThat(gpu.getGpu()).isZero();
    assertThat(gpu.getMemTotalMib()).as("the physical GPU keeps its whole frame buffer").isEqualTo(40960.0);
    assertThat(gpus.get(0).migDevices())
        .extracting(GpuMigSample::getGpu, GpuMigSample::getGpuUuid, GpuMigSample::getMigDevice, GpuMigSample::getGpuInstanceId,
            GpuMigSample::getComputeInstanceId, GpuMigSample::getSmCount, GpuMigSample::getMemUsedMib, GpuMigSample::getMemTotalMib,
            GpuMigSample::getEccSramUncorrectable, GpuMigSample::getProfile, GpuMigSample::getUuid)
        .containsExactly(
            tuple(0, "GPU-27b94a00-ed54-5c24-b1fd-1054085de32a", 0, 1, 0, 42, 19.0, 19968.0, 0L, null, null),
            tuple(0, "GPU-27b94a00-ed54-5c24-b1fd-1054085de32a", 1, 2, 0, 42, 19.0, 19968.0, 0L, null, null));
    assertThat(gpus.get(0).migDevices()).allSatisfy(m -> {
      assertThat(m.getSource()).isEqualTo("nvidia-smi-xml");
      assertThat(m.getNode()).isEqualTo("node-a");
      assertThat(m.getUtilPct()).as("nvidia-smi reports no utilization per MIG device").isNull();
    });
  }

  @Test
  void theV12XmlOfAnA100With4MigDevicesGivesFourSamples() throws Exception {
    List<NvidiaSmiXmlParser.Gpu> gpus = NvidiaSmiXmlParser.parse(TestData.read(A100_80GB_MIG_XML), TestData.CTX);
    assertThat(gpus).hasSize(1);
    assertThat(gpus.get(0).sample().getMemTotalMib()).isEqualTo(81920.0);
    assertThat(gpus.get(0).migDevices())
        .extracting(GpuMigSample::getMigDevice, GpuMigSample::getGpuInstanceId, GpuMigSample::getComputeInstanceId,
            GpuMigSample::getSmCount, GpuMigSample::getMemUsedMib, GpuMigSample::getMemTotalMib)
        .containsExactly(
            tuple(0, 3, 0, 14, 12.0, 19968.0),
            tuple(1, 4, 0, 14, 12.0, 19968.0),
            tuple(2, 5, 0, 14, 12.0, 19968.0),
            tuple(3, 6, 0, 14, 12.0, 19968.0));
  }

  @Test
  void aGpuWithoutMigHasNoMigSamples() throws Exception {
    assertThat(NvidiaSmiXmlParser.parse(TestData.read(T4_XML), TestData.CTX)).hasSize(1)
        .allSatisfy(g -> assertThat(g.migDevices()).isEmpty());
  }

  /** GPU, GI, CI and MIG device of the rows of the "MIG devices:" table of {@code nvidia-smi}. */
  static List<GpuMigSample> fromMigTable(String table, String gpuUuid) {
    Pattern row = Pattern.compile("^\\|\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|.*");
    List<GpuMigSample> out = new ArrayList<>();
    for (String line : table.split("\n")) {
      Matcher m = row.matcher(line);
      if (!m.matches()) continue;
      out.add(GpuMigSample.newBuilder().setTs(TestData.TS).setCluster("c").setNode("n").setAgentSeq(0L)
          .setGpu(Integer.parseInt(m.group(1))).setGpuUuid(gpuUuid).setGpuInstanceId(Integer.parseInt(m.group(2)))
          .setComputeInstanceId(Integer.parseInt(m.group(3))).setMigDevice(Integer.parseInt(m.group(4))).build());
    }
    return out;
  }

  @Test
  void theListingNamesProfileAndUuidOfEachMigDeviceOfAnH200() {
    List<GpuMigSample> samples = fromMigTable(TestData.section(H200_MIG, "load :: nvidia-smi (default table)"),
        "GPU-00000000-0000-0000-0000-000000000000");
    assertThat(samples).hasSize(5);
    List<GpuMigSample> labelled = MigListing.label(samples, NvidiaSmiListParserTest.listing(H200_MIG));
    assertThat(labelled).extracting(GpuMigSample::getGpuInstanceId, GpuMigSample::getComputeInstanceId, GpuMigSample::getProfile, GpuMigSample::getUuid)
        .containsExactly(
            tuple(2, 0, "1c.3g.71gb", "MIG-00000000-0000-0000-0000-000000000000"),
            tuple(2, 1, "2c.3g.71gb", "MIG-00000001-0000-0000-0000-000000000001"),
            tuple(3, 0, "2g.35gb", "MIG-00000002-0000-0000-0000-000000000002"),
            tuple(9, 0, "1g.18gb", "MIG-00000003-0000-0000-0000-000000000003"),
            tuple(10, 0, "1g.18gb", "MIG-00000004-0000-0000-0000-000000000004"));
    assertThat(MigListing.incomplete(labelled)).isFalse();
  }

  @Test
  void aListingOfAnotherGpuLabelsNothing() throws Exception {
    List<GpuMigSample> a100 = NvidiaSmiXmlParser.parse(TestData.read(A100_MIG_XML), TestData.CTX).get(0).migDevices();
    List<GpuMigSample> labelled = MigListing.label(a100, NvidiaSmiListParserTest.listing(H200_MIG));
    assertThat(labelled).as("GPU 0 of the listing is another GPU (UUID)").isEqualTo(a100);
    assertThat(MigListing.incomplete(labelled)).isTrue();
  }

  @Test
  void dcgmExporterInstanceSeriesBecomeMigSamplesAndLeaveTheGpuSampleAlone() {
    String text = TestData.read(DCGM_MIG);
    List<GpuSample> gpus = DcgmExporterParser.parse(text, TestData.CTX);
    assertThat(gpus).hasSize(1);
    assertThat(gpus.get(0).getMemUsedMib()).isEqualTo(4845.0);
    assertThat(gpus.get(0).getTempC()).isEqualTo(61.0);
    assertThat(DcgmExporterParser.group(text).get(0).fields().get("DCGM_FI_PROF_GR_ENGINE_ACTIVE"))
        .as("the GPU's own value, not its instance's 0.995687").isEqualTo(0.995630);
    List<DcgmExporterParser.MigFields> mig = DcgmExporterParser.groupMig(text);
    assertThat(mig).hasSize(1);
    GpuMigSample m = DcgmExporterParser.toMigSample(mig.get(0), TestData.CTX);
    assertThat(m.getGpu()).isZero();
    assertThat(m.getGpuUuid()).isEqualTo("GPU-34319582-d595-d1c7-d1d2-179bcfa61660");
    assertThat(m.getGpuInstanceId()).isEqualTo(13);
    assertThat(m.getProfile()).isEqualTo("1g.5gb");
    assertThat(m.getUtilPct()).isEqualTo(99.569);
    assertThat(m.getComputeInstanceId()).isNull();
    assertThat(m.getMemUsedMib()).as("the docs' output has no FB series per instance").isNull();
  }

  @Test
  void theCollectorPublishesMigSamplesAndListsOnlyWhenTheLayoutChanges() throws Exception {
    Path xml = dir.resolve("q-x.xml");
    Files.writeString(xml, TestData.read(A100_MIG_XML));
    Path list = dir.resolve("list.txt");
    Files.writeString(list, TestData.section(H200_MIG, "capabilities :: list (-L)"));
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "gpu-node-3";
    agent.baseDir = dir;
    NvidiaSmiXmlCollector.Config cfg = new NvidiaSmiXmlCollector.Config();
    cfg.command = List.of("cat", xml.toString());
    cfg.migListCommand = List.of("sh", "-c", "echo run >> list-runs; cat " + list);
    cfg.validate("nvidia_smi_xml");
    NvidiaSmiXmlCollector c = new NvidiaSmiXmlCollector(cfg, new AgentEnv(agent));
    for (int round = 0; round < 3; round++) {
      List<AgentRecord> recs = c.collect(new io.fleetscope.agent.core.CollectContext(TestData.TS + round * 10_000L, "c", "gpu-node-3"));
      assertThat(recs).extracting(AgentRecord::topic).containsExactly(Topics.GPU, Topics.GPU_MIG, Topics.GPU_MIG);
      assertThat(recs).extracting(AgentRecord::key).containsOnly("gpu-node-3");
    }
    assertThat(Files.readAllLines(dir.resolve("list-runs"))).as("listed once: the MIG layout did not change").hasSize(1);
  }
}
