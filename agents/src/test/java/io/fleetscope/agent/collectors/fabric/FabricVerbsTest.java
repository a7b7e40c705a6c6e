package io.fleetscope.agent.collectors.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.PortConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's MTUs (ibv_devinfo) and SL-to-VL tables (smpquery) over a sysfs root laid out like
 * the captured ibv_devinfo host: mlx5_0 an InfiniBand port, mlx5_1 a RoCE port (eth0). The tools'
 * outputs are the fixtures, printed by {@code cat}.
 */
class FabricVerbsTest {

  static Path site(Path sys) throws Exception {
    Path ib = sys.resolve("class/infiniband/mlx5_0/ports/1");
    Files.createDirectories(ib);
    Files.writeString(ib.resolve("link_layer"), "InfiniBand\n");
    Files.copy(TestData.fixture("infiniband/gpud-sysfs-h100/sys/class/infiniband/mlx5_0/ports/1/rate"), ib.resolve("rate"));
    Path roce = sys.resolve("class/infiniband/mlx5_1");
    Files.createDirectories(roce.resolve("ports/1"));
    Files.writeString(roce.resolve("ports/1/link_layer"), "Ethernet\n");
    Files.createDirectories(roce.resolve("device/net/eth0"));
    Files.createDirectories(sys.resolve("class/net/eth0"));
    Files.writeString(sys.resolve("class/net/eth0/mtu"), "1500\n");
    return sys;
  }

  static FabricConfigCollector collector(Path sys, List<String> devinfo, List<String> sl2vl) {
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n1";
    agent.paths.sys = sys;
    FabricConfigCollector.Config c = new FabricConfigCollector.Config();
    c.mlnxQosCommand = List.of();
    c.debugfs = false;
    c.ibvDevinfoCommand = devinfo;
    c.sl2vlCommand = sl2vl;
    return new FabricConfigCollector(c, new AgentEnv(agent));
  }

  static Map<String, PortConfig> byKey(List<AgentRecord> rs) {
    return rs.stream().collect(Collectors.toMap(AgentRecord::key, r -> (PortConfig) r.value()));
  }

  @Test
  void mtusForEveryPortAndTheSl2vlTableForInfinibandPortsThenOnlyOnChange(@TempDir Path sys, @TempDir Path out) throws Exception {
    site(sys);
    Files.copy(TestData.fixture("fabric/smpquery-sl2vl-hca-reconstructed.txt"), out.resolve("mlx5_0-1.txt"));
    FabricConfigCollector c = collector(sys, List.of("cat", TestData.fixture("fabric/performance-study-ibv_devinfo-azure-hbv3.txt").toString()),
        List.of("cat", out.resolve("{device}-{port}.txt").toString()));

    Map<String, PortConfig> first = byKey(c.collect(new CollectContext(1_000, "c", "n1")));
    assertThat(first).containsOnlyKeys("n1/mlx5_0/1", "n1/mlx5_1/1");
    PortConfig ib = first.get("n1/mlx5_0/1");
    assertThat(ib.getActiveMtu()).isEqualTo(4096);
    assertThat(ib.getMaxMtu()).isEqualTo(4096);
    assertThat(ib.getSl2vl()).containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
    assertThat(ib.getSource()).isEqualTo("sysfs,ibv_devinfo,smpquery");
    assertThat(ib.getLinkWidth()).isEqualTo("4X");
    PortConfig roce = first.get("n1/mlx5_1/1");
    assertThat(roce.getMtuBytes()).isEqualTo(1500);
    assertThat(roce.getActiveMtu()).isEqualTo(1024);
    assertThat(roce.getMaxMtu()).isEqualTo(4096);
    assertThat(roce.getSl2vl()).as("RoCE has no SL-to-VL table").isNull();
    assertThat(roce.getSource()).isEqualTo("sysfs,ibv_devinfo");

    assertThat(c.collect(new CollectContext(61_000, "c", "n1"))).as("nothing changed").isEmpty();

    // the subnet manager maps every SL to VL 0 on this port (a QoS policy that did not reach it)
    Files.writeString(out.resolve("mlx5_0-1.txt"), Files.readString(out.resolve("mlx5_0-1.txt"))
        .replace("| 0| 1| 0| 1| 0| 1| 0| 1| 0| 1| 0| 1| 0| 1| 0| 1|", "| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0|"));
    Map<String, PortConfig> changed = byKey(c.collect(new CollectContext(121_000, "c", "n1")));
    assertThat(changed).containsOnlyKeys("n1/mlx5_0/1");
    assertThat(changed.get("n1/mlx5_0/1").getSl2vl()).containsOnly(0).hasSize(16);
  }

  @Test
  void absentToolsLeaveTheFieldsUnknownAndTheRestIsStillSent(@TempDir Path sys) throws Exception {
    site(sys);
    FabricConfigCollector c = collector(sys, List.of(sys.resolve("no-such-ibv_devinfo").toString()),
        List.of(sys.resolve("no-such-smpquery").toString(), "{device}", "{port}"));
    Map<String, PortConfig> first = byKey(c.collect(new CollectContext(1_000, "c", "n1")));
    assertThat(first).containsOnlyKeys("n1/mlx5_0/1", "n1/mlx5_1/1");
    assertThat(first.get("n1/mlx5_0/1").getActiveMtu()).isNull();
    assertThat(first.get("n1/mlx5_0/1").getSl2vl()).isNull();
    assertThat(first.get("n1/mlx5_0/1").getSource()).isEqualTo("sysfs");
    assertThat(first.get("n1/mlx5_1/1").getMtuBytes()).isEqualTo(1500);
    assertThat(c.collect(new CollectContext(61_000, "c", "n1"))).isEmpty();
  }

  @Test
  void anSl2vlCommandWithoutItsPlaceholdersIsRefused() {
    FabricConfigCollector.Config c = new FabricConfigCollector.Config();
    c.sl2vlCommand = List.of("smpquery", "sl2vl", "0");
    Assertions.assertThatThrownBy(() -> c.validate("fabric")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("fabric.sl2vl_command");
  }
}
