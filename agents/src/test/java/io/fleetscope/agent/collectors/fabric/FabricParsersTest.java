package io.fleetscope.agent.collectors.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.testing.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The fabric parsers on the captures in fixtures/fabric (origins in fixtures/SOURCES.md). */
class FabricParsersTest {

  static Map<String, String> tree(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Files.readString(p, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  @Test
  void mlnxQosWithDscpTrustAndPfcOnPriorityThree() {
    MlnxQosParser.Qos q = MlnxQosParser.parse(TestData.read("fabric/netarbiter-mlnx_qos-eth4.txt"));
    assertThat(q).isEqualTo(new MlnxQosParser.Qos("dscp", List.of(3)));
  }

  @Test
  void mlnxQosWithTheBufferRowAndPfcOnPriorityFive() {
    MlnxQosParser.Qos q = MlnxQosParser.parse(TestData.read("fabric/spiderpool-mlnx_qos-eth0.txt"));
    assertThat(q).isEqualTo(new MlnxQosParser.Qos("dscp", List.of(5)));
  }

  @Test
  void mlnxQosWithPfcOffEverywhereIsAnEmptyListAndWithoutATableUnknown() {
    String off = TestData.read("fabric/netarbiter-mlnx_qos-eth4.txt")
        .replace("enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   0   0   0   0");
    assertThat(MlnxQosParser.parse(off).pfcPrios()).isEmpty();
    assertThat(MlnxQosParser.parse("DCBX mode: OS controlled\nPriority trust state: pcp\n"))
        .isEqualTo(new MlnxQosParser.Qos("pcp", null));
  }

  @Test
  void mlnxQosRefusesATableWhoseRowsDoNotLineUp() {
    String cut = TestData.read("fabric/netarbiter-mlnx_qos-eth4.txt")
        .replace("enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   1");
    assertThatThrownBy(() -> MlnxQosParser.parse(cut)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mlnx_qos: PFC table has 8 priorities but 4 enabled values");
  }

  @Test
  void ecnSysfsTreeWithEveryPriorityOnAndCnpDscp48() throws IOException {
    Map<String, String> files = tree(TestData.fixture("fabric/spiderpool-sysfs/sys/class/net/eth0/ecn"));
    assertThat(files).hasSize(17);
    EcnSysfsParser.Ecn e = EcnSysfsParser.parse(files);
    assertThat(e).isEqualTo(new EcnSysfsParser.Ecn(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(0, 1, 2, 3, 4, 5, 6, 7), 48));
  }

  @Test
  void ecnWithOnePriorityOffAndNoTreeAtAll() throws IOException {
    Map<String, String> files = tree(TestData.fixture("fabric/spiderpool-sysfs/sys/class/net/eth0/ecn"));
    files.put("roce_rp/enable/3", "0\n");
    assertThat(EcnSysfsParser.parse(files).rpPrios()).containsExactly(0, 1, 2, 4, 5, 6, 7);
    assertThat(EcnSysfsParser.parse(Map.of())).isEqualTo(new EcnSysfsParser.Ecn(null, null, null));
    assertThatThrownBy(() -> EcnSysfsParser.parse(Map.of("roce_np/enable/3", "on\n")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ecn/roce_np/enable/3: 'on' is not a number");
  }

  @Test
  void dcqcnParametersOfTheDebugfsTree() throws IOException {
    Map<String, Long> p = CcParamsParser.parse(tree(TestData.fixture(
        "fabric/mlx5-debugfs-reconstructed/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params")));
    assertThat(p).hasSize(20).containsEntry("rp_time_reset", 300L).containsEntry("rp_ai_rate", 5L)
        .containsEntry("rp_hai_rate", 50L).containsEntry("rp_min_dec_fac", 50L).containsEntry("rp_byte_reset", 32767L)
        .containsEntry("np_cnp_dscp", 48L).containsEntry("np_cnp_prio", 6L).containsEntry("rp_initial_alpha_value", 1023L);
    assertThatThrownBy(() -> CcParamsParser.parse(Map.of("rp_gd", "x\n")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("cc_params/rp_gd: 'x' is not a number");
  }

  @Test
  void everyCapturedInfinibandRateFileGivesRateWidthAndSpeed() throws IOException {
    Map<String, String> got = new TreeMap<>();
    for (String f : List.of("gpud-sysfs-h100/sys/class/infiniband/mlx5_0/ports/1/rate",
        "gpud-sysfs-h100/sys/class/infiniband/mlx5_bond_0/ports/1/rate", "node_exporter-sysfs/sys/class/infiniband/i40iw0/ports/1/rate",
        "node_exporter-sysfs/sys/class/infiniband/mlx4_0/ports/1/rate", "procfs-sysfs/sys/class/infiniband/hfi1_0/ports/1/rate",
        "procfs-sysfs/sys/class/infiniband/mlx5_0/ports/1/rate")) {
      IbLinkParser.Link l = IbLinkParser.parse(Files.readString(TestData.fixture("infiniband/" + f), StandardCharsets.UTF_8));
      got.put(f.split("/")[0] + "/" + f.split("/")[4], l.rateGbps() + " " + l.width() + " " + l.speed());
    }
    assertThat(got).containsExactly(Map.entry("gpud-sysfs-h100/mlx5_0", "400.0 4X NDR"),
        Map.entry("gpud-sysfs-h100/mlx5_bond_0", "200.0 2X NDR"), Map.entry("node_exporter-sysfs/i40iw0", "10.0 4X SDR"),
        Map.entry("node_exporter-sysfs/mlx4_0", "40.0 4X QDR"), Map.entry("procfs-sysfs/hfi1_0", "100.0 4X EDR"),
        Map.entry("procfs-sysfs/mlx5_0", "25.0 1X EDR"));
    assertThat(IbLinkParser.parse("2.5 Gb/sec (1X SDR)\n").rateGbps()).isEqualTo(2.5);
    assertThatThrownBy(() -> IbLinkParser.parse("invalid")).hasMessageContaining("'invalid' is not '<N> Gb/sec (<W>X <SPEED>)'");
    assertThat(IbLinkParser.capMask("0xA651EC48\n")).isEqualTo("0xa651ec48");
    assertThatThrownBy(() -> IbLinkParser.capMask("N/A")).hasMessageContaining("'N/A' is not a hex mask");
  }
}
