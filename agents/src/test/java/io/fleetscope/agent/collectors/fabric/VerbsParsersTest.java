package io.fleetscope.agent.collectors.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.testing.TestData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ibv_devinfo and smpquery sl2vl parsers on the outputs in fixtures/fabric (origins in fixtures/SOURCES.md). */
class VerbsParsersTest {

  @Test
  void ibvDevinfoGivesEachPortsMtusAndLinkLayer() {
    Map<String, IbvDevinfoParser.PortMtu> ports = IbvDevinfoParser.parse(TestData.read("fabric/performance-study-ibv_devinfo-azure-hbv3.txt"));
    assertThat(ports).containsOnlyKeys("mlx5_0/1", "mlx5_1/1");
    assertThat(ports.get("mlx5_0/1")).isEqualTo(new IbvDevinfoParser.PortMtu(4096, 4096, "InfiniBand"));
    // the captured ConnectX-4 Lx RoCE function: its Ethernet MTU holds a 1024-byte RDMA MTU only
    assertThat(ports.get("mlx5_1/1")).isEqualTo(new IbvDevinfoParser.PortMtu(4096, 1024, "Ethernet"));
  }

  @Test
  void ibvDevinfoVerboseLinesAndTwoPortsOfOneDevice() {
    // -v adds device capabilities before the ports and port attributes after link_layer (devinfo.c)
    String one = TestData.read("fabric/performance-study-ibv_devinfo-azure-hbv3.txt").split("\n\n")[0] + "\n";
    String verbose = one.replace("\tphys_port_cnt:\t\t\t1\n", "\tphys_port_cnt:\t\t\t2\n\tmax_mr_size:\t\t\t0xffffffffffffffff\n")
        .replace("\t\t\tlink_layer:\t\tInfiniBand\n", "\t\t\tlink_layer:\t\tInfiniBand\n\t\t\tmax_msg_sz:\t\t0x40000000\n"
            + "\t\t\tmax_vl_num:\t\t4 (3)\n")
        + "\t\tport:\t2\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t2048 (4)\n"
        + "\t\t\tlink_layer:\t\tInfiniBand\n";
    Map<String, IbvDevinfoParser.PortMtu> ports = IbvDevinfoParser.parse(verbose);
    assertThat(ports).containsOnlyKeys("mlx5_0/1", "mlx5_0/2");
    assertThat(ports.get("mlx5_0/2").activeMtu()).isEqualTo(2048);
  }

  @Test
  void ibvDevinfoRefusesAnInvalidMtuAndAPortWithoutDevice() {
    String bad = TestData.read("fabric/performance-study-ibv_devinfo-azure-hbv3.txt").replace("1024 (3)", "invalid MTU (0)");
    assertThatThrownBy(() -> IbvDevinfoParser.parse(bad))
        .hasMessage("ibv_devinfo: mlx5_1/1 active_mtu 'invalid MTU (0)' is not an InfiniBand MTU");
    assertThatThrownBy(() -> IbvDevinfoParser.parse("\t\tport:\t1\n")).hasMessageContaining("before any hca_id line");
    assertThat(IbvDevinfoParser.parse("No IB devices found\n")).isEmpty();
  }

  @Test
  void sl2vlOfAChannelAdapterPort() {
    assertThat(Sl2vlParser.parse(TestData.read("fabric/smpquery-sl2vl-hca-reconstructed.txt")))
        .containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
  }

  @Test
  void sl2vlOfASwitchTakesTheRowOfPortZero() {
    String sw = "# SL2VL table: Lid 1\n#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\n"
        + "ports: in  1, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14| 7|\n"
        + "ports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14| 7|\n";
    assertThat(Sl2vlParser.parse(sw)).isEqualTo(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7));
  }

  @Test
  void sl2vlRefusesAnErrorAndAShortRow() {
    // only the header: the query failed after it was printed (smpquery returns the error on stderr)
    String header = TestData.read("fabric/smpquery-sl2vl-hca-reconstructed.txt").split("\nports:")[0] + "\n";
    assertThatThrownBy(() -> Sl2vlParser.parse(header))
        .hasMessage("smpquery sl2vl: no 'ports: in 0, out 0: |...|' row of 16 VLs (output begins "
            + "'# SL2VL table: DR path slid 0; dlid 0; 0')");
    String cut = TestData.read("fabric/smpquery-sl2vl-hca-reconstructed.txt").replace(" 0| 1| 0| 1|\n", "\n");
    assertThatThrownBy(() -> Sl2vlParser.parse(cut)).hasMessageContaining("no 'ports: in 0, out 0");
  }
}
