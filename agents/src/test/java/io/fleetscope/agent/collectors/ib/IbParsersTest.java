package io.fleetscope.agent.collectors.ib;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.Golden;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.IbPortSample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every InfiniBand parser over every real capture, comparing the complete record set. */
class IbParsersTest {

  static List<IbPortSample> readSysfs(Path root) throws Exception {
    List<IbPortSample> out = new ArrayList<>();
    for (SysfsReader.PortDir p : SysfsReader.ports(root)) {
      out.add(IbSysfsParser.parse(p.device(), p.port(), SysfsReader.readPort(p.dir()), IbValues.rail(p.device(), Map.of()), CTX));
    }
    return out;
  }

  static Stream<Arguments> sysfsTrees() {
    return Stream.of(
        Arguments.of("infiniband/gpud-sysfs-h100/sys", "ib-sysfs/gpud-h100.jsonl", 2),
        Arguments.of("infiniband/procfs-sysfs/sys", "ib-sysfs/procfs.jsonl", 2),
        Arguments.of("infiniband/node_exporter-sysfs/sys", "ib-sysfs/node_exporter.jsonl", 3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sysfsTrees")
  void sysfs(String tree, String golden, int ports) throws Exception {
    List<IbPortSample> records = readSysfs(TestData.fixture(tree));
    assertThat(records).hasSize(ports);
    Golden.assertMatches(golden, records);
  }

  @Test
  void sysfsH100WordsBecomeBytesAndRailFollowsDeviceNumber() throws Exception {
    Path port = TestData.fixture("infiniband/gpud-sysfs-h100/sys/class/infiniband/mlx5_0/ports/1");
    long words = Long.parseLong(java.nio.file.Files.readString(port.resolve("counters/port_xmit_data")).strip());
    IbPortSample s = readSysfs(TestData.fixture("infiniband/gpud-sysfs-h100/sys")).get(0);
    assertThat(s.getDevice()).isEqualTo("mlx5_0");
    assertThat(s.getXmitBytes()).isEqualTo(words * 4);
    assertThat(s.getRail()).isZero();
    assertThat(s.getState()).isEqualTo("ACTIVE");
    assertThat(s.getPhysState()).isEqualTo("LinkUp");
    assertThat(s.getRateGbps()).isEqualTo(400.0);
    assertThat(s.getLinkLayer()).isEqualTo("InfiniBand");
    IbPortSample bond = readSysfs(TestData.fixture("infiniband/gpud-sysfs-h100/sys")).get(1);
    assertThat(bond.getDevice()).isEqualTo("mlx5_bond_0");
    assertThat(bond.getRail()).as("a bond has no mlx5_N rail unless configured").isNull();
    assertThat(bond.getLinkLayer()).isEqualTo("Ethernet");
  }

  @Test
  void sysfsMlx4Prefers64BitExtCountersAndI40iwNoPmaIsNull() throws Exception {
    List<IbPortSample> r = readSysfs(TestData.fixture("infiniband/node_exporter-sysfs/sys"));
    IbPortSample i40 = r.stream().filter(s -> s.getDevice().equals("i40iw0")).findFirst().orElseThrow();
    assertThat(i40.getXmitBytes()).as("N/A (no PMA)").isNull();
    IbPortSample mlx4p2 = r.stream().filter(s -> s.getDevice().equals("mlx4_0") && s.getPort() == 2).findFirst().orElseThrow();
    Path ext = TestData.fixture("infiniband/node_exporter-sysfs/sys/class/infiniband/mlx4_0/ports/2/counters_ext/port_xmit_data_64");
    assertThat(mlx4p2.getXmitBytes()).isEqualTo(Long.parseLong(java.nio.file.Files.readString(ext).strip()) * 4);
  }

  static Stream<Arguments> ibstatCaptures() {
    return Stream.of(
        Arguments.of("ibstat.47.0.h100.all.active.2.txt", null),
        Arguments.of("ibstat.47.0.h100.some.down.0.txt", null),
        Arguments.of("ibstat.47.0.a100.all.active.0.txt", null),
        Arguments.of("ibstat.39.0.a100.failed.ibpanic.exit-255.0.txt", "ibpanic:"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ibstatCaptures")
  void ibstat(String file, String errorPrefix) throws Exception {
    IbstatParser.Result r = IbstatParser.parse(TestData.read("infiniband/gpud-ibstat/" + file), Map.of(), CTX);
    if (errorPrefix == null) assertThat(r.error()).isNull();
    else assertThat(r.error()).startsWith(errorPrefix);
    assertThat(r.ports()).isNotEmpty();
    Golden.assertMatches("ibstat/" + file.replace(".txt", ".jsonl"), r.ports());
  }

  @Test
  void ibstatSomeDownShowsDisabledPorts() {
    IbstatParser.Result r = IbstatParser.parse(TestData.read("infiniband/gpud-ibstat/ibstat.47.0.h100.some.down.0.txt"), Map.of(), CTX);
    assertThat(r.ports()).anySatisfy(p -> {
      assertThat(p.getState()).isEqualTo("DOWN");
      assertThat(p.getPhysState()).isEqualTo("Disabled");
    });
    IbPortSample first = r.ports().get(0);
    assertThat(first.getDevice()).isEqualTo("mlx5_0");
    assertThat(first.getRateGbps()).isEqualTo(400.0);
    assertThat(first.getLinkLayer()).isEqualTo("InfiniBand");
  }

  static Stream<String> perfqueryCaptures() {
    return Stream.of("0x506b4b03005c2740.out", "0x506b4b0300cc02a6.out", "0x7cfe9003003b4b96.out", "0x7cfe9003003b4bde.out", "0x7cfe9003009ce5b0.out");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("perfqueryCaptures")
  void perfquery(String file) throws Exception {
    IbPortSample s = PerfqueryParser.parse(TestData.read("infiniband/treydock-infiniband_exporter/perfquery/" + file), "mlx5_0", 1, 0, CTX);
    Golden.assertMatches("perfquery/" + file.replace(".out", ".jsonl"), s == null ? List.of() : List.of(s));
  }

  @Test
  void perfqueryWordsToBytesAndEmptyOutput() {
    IbPortSample s = PerfqueryParser.parse(TestData.read("infiniband/treydock-infiniband_exporter/perfquery/0x7cfe9003003b4b96.out"), "mlx5_0", 1, 0, CTX);
    assertThat(s.getXmitBytes()).isEqualTo(37108676853855L * 4);
    assertThat(s.getRcvBytes()).isEqualTo(37225401952885L * 4);
    assertThat(s.getXmitPkts()).isEqualTo(96917117320L);
    assertThat(s.getSymbolErrors()).isZero();
    assertThat(PerfqueryParser.parse(TestData.read("infiniband/treydock-infiniband_exporter/perfquery/0x506b4b0300cc02a6.out"), "mlx5_0", 1, 0, CTX))
        .as("empty upstream capture").isNull();
  }

  @Test
  void ethtoolPauseCounters() throws Exception {
    Map<String, Long> c = EthtoolParser.parse(TestData.read("roce/ethq-tests-mlx5_core-ethtool-S.txt"));
    assertThat(c).hasSizeGreaterThan(700);
    EthtoolParser.Pause p = EthtoolParser.pause(c);
    // no per-priority pause lines on that host (PFC off): the global pause counters are used
    assertThat(c).doesNotContainKey("rx_prio3_pause");
    assertThat(p.rx()).isEqualTo(c.get("rx_pause_ctrl_phy"));
    assertThat(p.tx()).isEqualTo(c.get("tx_pause_ctrl_phy"));
    assertThat(EthtoolParser.pause(Map.of("rx_prio3_pause", 5L, "rx_prio4_pause", 2L, "rx_pause_ctrl_phy", 100L)).rx()).isEqualTo(7L);
  }

  @Test
  void railMap() {
    assertThat(IbValues.rail("mlx5_7", Map.of())).isEqualTo(7);
    assertThat(IbValues.rail("mlx5_7", Map.of("mlx5_7", 3))).isEqualTo(3);
    assertThat(IbValues.rail("mlx5_bond_0", Map.of())).isNull();
  }
}
