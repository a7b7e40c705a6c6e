package io.fleetscope.agent.collectors.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.gpu.NvidiaSmiXmlParser;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.InventoryRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InventoryCollectorTest {
  static final String H200_580 = "nvidia-smi/h200-580.159.04/";

  static InventoryCollector gpusOnly(Path dir, Path xml) {
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n";
    agent.baseDir = dir;
    InventoryCollector.Config cfg = new InventoryCollector.Config();
    cfg.gpuCommand = List.of("cat", xml.toString());
    cfg.hcas = false;
    return new InventoryCollector(cfg, new AgentEnv(agent));
  }

  @Test
  void h200Driver580LimitsOnlyRelativeToTLimitAreNullAndStable(@TempDir Path dir) throws Exception {
    Path xml = dir.resolve("gpus.xml");
    Files.copy(TestData.fixture(H200_580 + "q-x-idle.xml"), xml);
    InventoryCollector c = gpusOnly(dir, xml);

    List<AgentRecord> first = c.collect(new CollectContext(1000, "c", "n"));
    assertThat(first).hasSize(1);
    InventoryRecord r = (InventoryRecord) first.get(0).value();
    assertThat(r.getGpus()).containsExactly(GpuInfo.newBuilder()
        .setIndex(0).setUuid("GPU-f0e2a70e-376b-7972-5e20-a1e690804d84").setModel("NVIDIA H200").setTdpW(700.0)
        .setSlowdownTempC(null).setShutdownTempC(null).setMemMaxTempC(null)
        .setHbmGb(140.4).setPciBusId("00000000:00:06.0")
        .build());
    assertThat(r.getHcas()).isEmpty();

    // the same GPU under load (T.Limit margin 52 -> 20 C): the inventory does not change, so nothing is sent
    Files.copy(TestData.fixture(H200_580 + "q-x-load.xml"), xml, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(c.collect(new CollectContext(2000, "c", "n"))).as("load capture, same topology").isEmpty();
  }

  @Test
  void relativeLimitsNotedOncePerGpu(@TempDir Path dir) throws Exception {
    InventoryCollector c = gpusOnly(dir, dir.resolve("unused.xml"));
    List<NvidiaSmiXmlParser.Gpu> load = NvidiaSmiXmlParser.parse(TestData.read(H200_580 + "q-x-load.xml"), TestData.CTX);
    assertThat(c.relativeLimitNotes(load)).containsExactly(
        "gpu thermal limits only relative to T.Limit, sent as null gpu=0 uuid=GPU-f0e2a70e-376b-7972-5e20-a1e690804d84"
            + " model=\"NVIDIA H200\" null=slowdown_temp_c,shutdown_temp_c,mem_max_temp_c"
            + " slowdown_tlimit_c=-2 shutdown_tlimit_c=-8 max_operating_tlimit_c=0 mem_max_tlimit_c=0 tlimit_margin_c=20");
    assertThat(c.relativeLimitNotes(load)).as("second round").isEmpty();
    assertThat(c.relativeLimitNotes(NvidiaSmiXmlParser.parse(TestData.read(H200_580 + "q-x-idle.xml"), TestData.CTX)))
        .as("same GPU, idle capture").isEmpty();
    assertThat(c.relativeLimitNotes(NvidiaSmiXmlParser.parse(TestData.read("nvidia-smi/telegraf-a100-sxm4-v12.xml"), TestData.CTX)))
        .as("absolute limits present").isEmpty();
  }

  @Test
  void sentAtStartThenOnlyOnChange(@TempDir Path dir) throws Exception {
    Path xml = dir.resolve("gpus.xml");
    Files.copy(TestData.fixture("nvidia-smi/telegraf-a100-sxm4-v12.xml"), xml);
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n";
    agent.baseDir = dir;
    agent.paths.sys = TestData.fixture("infiniband/gpud-sysfs-h100/sys");
    InventoryCollector.Config cfg = new InventoryCollector.Config();
    cfg.gpuCommand = List.of("cat", xml.toString());
    cfg.rack = "r1";
    InventoryCollector c = new InventoryCollector(cfg, new AgentEnv(agent));

    List<AgentRecord> first = c.collect(new CollectContext(1000, "c", "n"));
    assertThat(first).hasSize(1);
    InventoryRecord r = (InventoryRecord) first.get(0).value();
    assertThat(first.get(0).key()).isEqualTo("n");
    assertThat(r.getKind()).isEqualTo("node");
    assertThat(r.getGpus()).singleElement().satisfies(g -> {
      assertThat(g.getModel()).isEqualTo("NVIDIA A100-SXM4-80GB");
      assertThat(g.getSlowdownTempC()).isEqualTo(89.0);
    });
    assertThat(r.getHcas()).extracting(h -> h.getDevice() + ":" + h.getRail()).containsExactly("mlx5_0:0", "mlx5_bond_0:null");

    assertThat(c.collect(new CollectContext(2000, "c", "n"))).as("unchanged topology").isEmpty();

    Files.writeString(xml, Files.readString(xml).replace("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"));
    List<AgentRecord> changed = c.collect(new CollectContext(3000, "c", "n"));
    assertThat(changed).hasSize(1);
    assertThat(((InventoryRecord) changed.get(0).value()).getGpus().get(0).getModel()).isEqualTo("NVIDIA H100 80GB HBM3");
  }
}
