package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.testing.Fleet;
import org.junit.jupiter.api.Test;

class NodeKeyTest {
  @Test
  void theKeyOfARecordIsClusterBarNodeOrDeviceAndReadsBack() {
    NodeKey gpu = NodeKey.of(Fleet.gpu("node-a", 0, Fleet.t(0), 0).build());
    assertThat(gpu).isEqualTo(new NodeKey("c1", "node-a"));
    assertThat(gpu.toString()).isEqualTo("c1|node-a").isEqualTo(NodeFunction.nodeKey(Fleet.gpu("node-a", 0, Fleet.t(0), 0).build()));
    assertThat(NodeKey.parse(gpu.toString())).isEqualTo(gpu);

    PduReading pdu = PduReading.newBuilder().setTs(Fleet.t(0)).setCluster("c1").setDevice("pdu-3").setAgentSeq(0).build();
    assertThat(NodeKey.of(pdu)).isEqualTo(new NodeKey("c1", "pdu-3"));
  }

  @Test
  void aNodeNameMayHoldABar() {
    assertThat(NodeKey.parse("c1|rack7|n2")).isEqualTo(new NodeKey("c1", "rack7|n2"));
    assertThatThrownBy(() -> NodeKey.parse("c1-n2")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("c1-n2");
  }
}
