package io.fleetscope.agent.collectors.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector over a sysfs root assembled from the fabric captures: one RoCE port (mlx5_0 port 1,
 * link layer Ethernet, interface eth0) with the captured ECN tree, the debugfs DCQCN parameters, and
 * the captured mlnx_qos output printed by {@code cat}; plus an InfiniBand port (mlx5_1) whose rate file is
 * the gpud H100 capture's ({@code 400 Gb/sec (4X NDR)}).
 */
class FabricConfigCollectorTest {

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(t);
        else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  static Path site(Path sys) throws IOException {
    copyTree(TestData.fixture("fabric/spiderpool-sysfs/sys"), sys);
    copyTree(TestData.fixture("fabric/mlx5-debugfs-reconstructed/sys"), sys);
    Path roce = sys.resolve("class/infiniband/mlx5_0");
    Files.createDirectories(roce.resolve("ports/1"));
    Files.writeString(roce.resolve("ports/1/link_layer"), "Ethernet\n");
    Files.createDirectories(roce.resolve("device/net/eth0"));
    Files.writeString(sys.resolve("class/net/eth0/mtu"), "9000\n");
    Path ib = sys.resolve("class/infiniband/mlx5_1");
    Files.createDirectories(ib.resolve("ports/1"));
    Files.writeString(ib.resolve("ports/1/link_layer"), "InfiniBand\n");
    Files.copy(TestData.fixture("infiniband/gpud-sysfs-h100/sys/class/infiniband/mlx5_0/ports/1/rate"), ib.resolve("ports/1/rate"));
    return sys;
  }

  static FabricConfigCollector collector(Path sys, Path qosDir) {
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n1";
    agent.paths.sys = sys;
    FabricConfigCollector.Config c = new FabricConfigCollector.Config();
    c.mlnxQosCommand = List.of("cat", qosDir.resolve("{netdev}.txt").toString());
    c.pci.put("mlx5_0", "0000:3b:00.0");
    // the verbs tools are tested in FabricVerbsTest; here they are off, whatever the machine has installed
    c.ibvDevinfoCommand = List.of();
    c.sl2vlCommand = List.of();
    return new FabricConfigCollector(c, new AgentEnv(agent));
  }

  @Test
  void oneRecordPerRocePortAtStartThenOnlyOnChange(@TempDir Path sys, @TempDir Path qos) throws Exception {
    site(sys);
    Files.copy(TestData.fixture("fabric/netarbiter-mlnx_qos-eth4.txt"), qos.resolve("eth0.txt"));
    FabricConfigCollector c = collector(sys, qos);

    List<AgentRecord> first = c.collect(new CollectContext(1_000, "c", "n1"));
    assertThat(first).hasSize(2);
    assertThat(first.get(1).key()).isEqualTo("n1/mlx5_1/1");
    assertThat(first.get(0).topic()).isEqualTo(Topics.FABRIC_CONFIG);
    assertThat(first.get(0).key()).isEqualTo("n1/mlx5_0/1");
    PortConfig p = (PortConfig) first.get(0).value();
    assertThat(p.getSource()).isEqualTo("sysfs,mlnx_qos,debugfs");
    assertThat(p.getNetdev()).isEqualTo("eth0");
    assertThat(p.getRail()).isEqualTo(0);
    assertThat(p.getMtuBytes()).isEqualTo(9000);
    assertThat(p.getTrust()).isEqualTo("dscp");
    assertThat(p.getPfcPrios()).containsExactly(3);
    assertThat(p.getEcnNpPrios()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(p.getEcnRpPrios()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(p.getCnpDscp()).isEqualTo(48);
    assertThat(p.getDcqcn()).hasSize(20).containsEntry("rp_time_reset", 300L);

    assertThat(c.collect(new CollectContext(61_000, "c", "n1"))).as("nothing changed").isEmpty();

    // an operator turns PFC off on priority 3
    Files.writeString(qos.resolve("eth0.txt"), Files.readString(qos.resolve("eth0.txt"))
        .replace("enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   0   0   0   0"));
    List<AgentRecord> changed = c.collect(new CollectContext(121_000, "c", "n1"));
    assertThat(changed).hasSize(1);
    assertThat(((PortConfig) changed.get(0).value()).getPfcPrios()).isEmpty();
    assertThat(((PortConfig) changed.get(0).value()).getTs()).isEqualTo(121_000);
  }

  @Test
  void anInfinibandPortReportsItsLinkAndCapabilityMaskAndAgainWhenItRetrains(@TempDir Path sys, @TempDir Path qos) throws Exception {
    site(sys);
    Path port = sys.resolve("class/infiniband/mlx5_1/ports/1");
    // the kernel prints cap_mask as 0x%08x; the value is the gpud ibstat capture's "Capability mask"
    Files.writeString(port.resolve("cap_mask"), "0xa651ec48\n");
    FabricConfigCollector c = collector(sys, qos);
    PortConfig p = (PortConfig) c.collect(new CollectContext(1_000, "c", "n1")).stream()
        .filter(r -> r.key().equals("n1/mlx5_1/1")).findFirst().orElseThrow().value();
    assertThat(p.getLinkLayer()).isEqualTo("InfiniBand");
    assertThat(p.getRail()).isEqualTo(1);
    assertThat(p.getRateGbps()).isEqualTo(400.0);
    assertThat(p.getLinkWidth()).isEqualTo("4X");
    assertThat(p.getLinkSpeed()).isEqualTo("NDR");
    assertThat(p.getCapMask()).isEqualTo("0xa651ec48");
    assertThat(p.getSource()).isEqualTo("sysfs");
    assertThat(p.getPfcPrios()).isNull();
    assertThat(p.getMtuBytes()).isNull();
    assertThat(c.collect(new CollectContext(31_000, "c", "n1"))).as("nothing changed").isEmpty();
    // the gpud capture's bonded port: the same NDR lanes, two of them
    Files.copy(TestData.fixture("infiniband/gpud-sysfs-h100/sys/class/infiniband/mlx5_bond_0/ports/1/rate"), port.resolve("rate"),
        StandardCopyOption.REPLACE_EXISTING);
    List<AgentRecord> changed = c.collect(new CollectContext(61_000, "c", "n1"));
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).key()).isEqualTo("n1/mlx5_1/1");
    assertThat(((PortConfig) changed.get(0).value()).getLinkWidth()).isEqualTo("2X");
    assertThat(((PortConfig) changed.get(0).value()).getRateGbps()).isEqualTo(200.0);
  }

  @Test
  void aMissingToolLeavesPfcAndTrustUnknownNotOff(@TempDir Path sys, @TempDir Path qos) throws Exception {
    site(sys);
    FabricConfigCollector c = collector(sys, qos); // no eth0.txt: cat fails
    PortConfig p = (PortConfig) c.collect(new CollectContext(1_000, "c", "n1")).get(0).value();
    assertThat(p.getPfcPrios()).isNull();
    assertThat(p.getTrust()).isNull();
    assertThat(p.getSource()).isEqualTo("sysfs,debugfs");
    assertThat(p.getMtuBytes()).isEqualTo(9000);
  }
}
