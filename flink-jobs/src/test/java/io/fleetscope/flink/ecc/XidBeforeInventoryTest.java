package io.fleetscope.flink.ecc;

import static io.fleetscope.flink.ecc.EccScenario.m;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.ArrivalFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.testing.Fleet;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The inventory race of the fast path, as a replay onto a job that starts on the backlog meets it:
 * the XID source and the topology broadcast are separate inputs of the operator, and an XID that
 * comes before its node's inventory record is labelled with the topology as it is then (no rack),
 * so its anomaly gets another fingerprint than the same XID after the inventory (what ReplayLiveIT
 * in stack/cli saw once as a GpuXid incident with another fingerprint). With
 * {@code pipeline.inventory_hold_ms} (10 s by default in a live run) the fast path holds such a record until
 * the inventory comes, at most that long.
 */
class XidBeforeInventoryTest {
  private static final long HOLD_MS = 10_000;

  private static KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Anomaly> harness(long holdMs)
      throws Exception {
    ArrivalFunction<SpecificRecord, GpuHardFaults> f = new EccHardFaultFunction(EccScenario.config().section("ecc", EccConfig.class),
        XidCatalog.load(), "ecc").holdingForInventory(holdMs);
    var h = new KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Anomaly>(
        new CoBroadcastWithKeyedOperator<>(f, List.of(Topology.INVENTORY, Topology.JOBS)),
        EccHardFaultFunction::keyOf, Types.STRING, 1, 1, 0);
    h.setup(AvroTypeInfo.forClass(Anomaly.class).createSerializer(new SerializerConfigImpl()));
    h.open();
    return h;
  }

  private static final SpecificRecord INVENTORY = Fleet.node("n1", "r7", 2, 2, m(-1));
  private static final SpecificRecord XID = Fleet.xid("n1", 1, 48, m(10), 1);
  private static final SpecificRecord XID_LATER = Fleet.xid("n1", 1, 79, m(10) + 2000, 2);

  /** The two XIDs, with the inventory before them or after the first; processing time 0 to {@code afterMs}. */
  private static List<Anomaly> run(boolean inventoryFirst, long holdMs, long afterMs) throws Exception {
    try (var h = harness(holdMs)) {
      h.setProcessingTime(0);
      if (inventoryFirst) {
        h.processBroadcastElement(INVENTORY, m(-1));
      }
      h.processElement(XID, m(10));
      h.setProcessingTime(300);
      if (!inventoryFirst) {
        h.processBroadcastElement(INVENTORY, m(-1));
      }
      h.setProcessingTime(afterMs);
      h.processElement(XID_LATER, m(10) + 2000);
      return h.extractOutputValues();
    }
  }

  private static List<String> firing(List<Anomaly> out) {
    return out.stream().filter(a -> "firing".equals(a.getStatus()))
        .map(a -> a.getLabels().get("xid") + " rack=" + a.getLabels().get("rack") + " " + a.getFingerprint()).toList();
  }

  @Test
  void withoutAHoldAnXidBeforeItsNodesInventoryIsLabelledWithoutTheRackAndGetsAnotherFingerprint() throws Exception {
    List<String> inOrder = firing(run(true, 0, 1000));
    List<String> raced = firing(run(false, 0, 1000));
    assertThat(inOrder).hasSize(2).allSatisfy(a -> assertThat(a).contains("rack=r7"));
    assertThat(raced).hasSize(2);
    assertThat(raced.get(0)).startsWith("48 rack=null");
    assertThat(raced.get(0)).isNotEqualTo(inOrder.get(0));
  }

  @Test
  void heldUntilTheInventoryComesTheXidGetsTheFingerprintItHasInOrder() throws Exception {
    List<String> inOrder = firing(run(true, HOLD_MS, 1000));
    assertThat(inOrder).isEqualTo(firing(run(true, 0, 1000)));
    assertThat(firing(run(false, HOLD_MS, 1000))).isEqualTo(inOrder);
  }

  @Test
  void aHeldXidIsDecidedOnceTheInventoryComesWithoutWaitingForTheNextRecord() throws Exception {
    try (var h = harness(HOLD_MS)) {
      h.setProcessingTime(0);
      h.processElement(XID, m(10));
      assertThat(h.extractOutputValues()).as("held").isEmpty();
      h.processBroadcastElement(INVENTORY, m(-1));
      h.setProcessingTime(200); // the next look for the inventory
      assertThat(firing(h.extractOutputValues())).singleElement().asString().startsWith("48 rack=r7");
    }
  }

  @Test
  void withoutAnInventoryAtAllTheXidIsDecidedAfterTheHoldAndTheKeyIsNotHeldAgain() throws Exception {
    try (var h = harness(HOLD_MS)) {
      h.setProcessingTime(0);
      h.processElement(XID, m(10));
      h.setProcessingTime(HOLD_MS - 100);
      assertThat(h.extractOutputValues()).as("held for the inventory").isEmpty();
      h.setProcessingTime(HOLD_MS);
      assertThat(firing(h.extractOutputValues())).singleElement().asString().startsWith("48 rack=null");
      h.processElement(XID_LATER, m(10) + 2000);
      assertThat(firing(h.extractOutputValues())).as("decided at once").hasSize(2);
    }
  }

  @Test
  void heldRecordsAreDecidedAtTheEndOfABoundedInput() throws Exception {
    try (var h = harness(HOLD_MS)) {
      h.setProcessingTime(0);
      h.processElement(XID, m(10));
      h.processElement(XID_LATER, m(10) + 2000);
      assertThat(h.extractOutputValues()).isEmpty();
      h.processBroadcastWatermark(new Watermark(Long.MAX_VALUE));
      h.processWatermark(Long.MAX_VALUE);
      assertThat(firing(h.extractOutputValues())).extracting(s -> s.substring(0, 2)).containsExactly("48", "79");
    }
  }
}
