package io.fleetscope.flink.ecc;

import static io.fleetscope.flink.ecc.EccScenario.m;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.testing.Fleet;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The inventory race of the fast path, as a replay onto a job that starts on the backlog meets it:
 * the XID source and the topology broadcast are separate inputs of the operator, and an XID that
 * comes before its node's inventory record is labelled with the topology as it is then (no rack),
 * so its anomaly gets another fingerprint than the same XID after the inventory. This is what
 * ReplayLiveIT (stack/cli) saw once as a GpuXid incident with another fingerprint.
 */
class XidBeforeInventoryTest {

  private static List<Anomaly> run(boolean inventoryFirst) throws Exception {
    EccHardFaultFunction f = new EccHardFaultFunction(EccScenario.config().section("ecc", EccConfig.class), XidCatalog.load(), "ecc");
    try (var h = new KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Anomaly>(
        new CoBroadcastWithKeyedOperator<>(f, List.of(Topology.INVENTORY, Topology.JOBS)),
        EccHardFaultFunction::keyOf, Types.STRING, 1, 1, 0)) {
      h.setup(AvroTypeInfo.forClass(Anomaly.class).createSerializer(new SerializerConfigImpl()));
      h.open();
      SpecificRecord inventory = Fleet.node("n1", "r7", 2, 2, m(-1));
      SpecificRecord xid = Fleet.xid("n1", 1, 48, m(10), 1);
      if (inventoryFirst) {
        h.processBroadcastElement(inventory, m(-1));
        h.processElement(xid, m(10));
      } else {
        h.processElement(xid, m(10));
        h.processBroadcastElement(inventory, m(-1));
      }
      return h.extractOutputValues();
    }
  }

  @Test
  void anXidBeforeItsNodesInventoryIsLabelledWithoutTheRackAndGetsAnotherFingerprint() throws Exception {
    List<Anomaly> inOrder = run(true);
    List<Anomaly> raced = run(false);
    assertThat(inOrder).extracting(a -> a.getLabels().get("alertname")).containsExactly("GpuXid");
    assertThat(raced).extracting(a -> a.getLabels().get("alertname")).containsExactly("GpuXid");
    assertThat(inOrder.get(0).getLabels()).containsEntry("rack", "r7");
    assertThat(raced.get(0).getLabels()).doesNotContainKey("rack");
    assertThat(raced.get(0).getFingerprint()).isNotEqualTo(inOrder.get(0).getFingerprint());
  }
}
