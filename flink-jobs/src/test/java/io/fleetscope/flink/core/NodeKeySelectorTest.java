package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.PduReading;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class NodeKeySelectorTest {
  private final NodeKeySelector<SpecificRecord> selector = new NodeKeySelector<>();

  private static GpuSample gpu(String cluster, String node) {
    return GpuSample.newBuilder().setTs(1).setCluster(cluster).setNode(node).setAgentSeq(1).setGpu(0).build();
  }

  @Test
  void keysAreTheNodeKeyForEveryRecordKind() throws Exception {
    IbPortSample ib = IbPortSample.newBuilder().setTs(1).setCluster("c1").setNode("node-a").setAgentSeq(1).setDevice("mlx5_0")
        .setPort(1).build();
    PduReading pdu = PduReading.newBuilder().setTs(1).setCluster("c1").setDevice("pdu-3").setAgentSeq(1).build();
    assertThat(selector.getKey(gpu("c1", "node-a"))).isEqualTo("c1|node-a").isEqualTo(NodeFunction.nodeKey(gpu("c1", "node-a")));
    assertThat(selector.getKey(ib)).isEqualTo("c1|node-a");
    assertThat(selector.getKey(pdu)).isEqualTo("c1|pdu-3").isEqualTo(NodeFunction.nodeKey(pdu));
  }

  @Test
  void aNodesKeyIsBuiltOnceAndClustersAreKeptApart() throws Exception {
    String node = "node-7";
    String first = selector.getKey(gpu("c1", node));
    assertThat(selector.getKey(gpu("c1", node))).isSameAs(first);
    assertThat(selector.getKey(gpu("c1", new String(node)))).isSameAs(first); // equal, not identical: still a hit
    assertThat(selector.getKey(gpu("c2", node))).isEqualTo("c2|node-7");
    assertThat(selector.getKey(gpu("c1", node))).isEqualTo("c1|node-7");
  }

  @Test
  void manyNodesSharingSlotsStillGetTheirOwnKeys() throws Exception {
    for (int round = 0; round < 2; round++) {
      for (int n = 0; n < 20_000; n++) {
        assertThat(selector.getKey(gpu("c" + (n % 3), "node-" + n))).isEqualTo("c" + (n % 3) + "|node-" + n);
      }
    }
  }
}
