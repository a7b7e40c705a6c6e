package io.fleetscope.agent.collectors.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.InventoryRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InventoryCollectorTest {
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
