package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.testing.Fleet;
import java.util.List;
import java.util.Map;
import io.fleetscope.flink.testing.MapBroadcastState;
import org.junit.jupiter.api.Test;

/** The one-pass CDU index gives every CDU the racks the per-CDU scan gives it. */
class TopologyLookupsTest {

  private static InventoryRecord of(String kind, String id, String rack, String cdu, List<String> racks) {
    return InventoryRecord.newBuilder().setTs(Fleet.T0).setCluster("c1").setKind(kind).setId(id).setRack(rack).setCdu(cdu)
        .setRacks(racks).build();
  }

  @Test
  void theIndexAgreesWithTheScanForEveryCdu() throws Exception {
    MapBroadcastState<String, InventoryRecord> inv = new MapBroadcastState<>();
    MapBroadcastState<String, io.fleetscope.avro.JobAllocations> jobs = new MapBroadcastState<>();
    List<InventoryRecord> records = List.of(
        of("cdu", "cdu-1", null, null, List.of("r1", "r2")),
        of("cdu", "cdu-2", null, null, List.of()),
        of("rack", "r3", null, "cdu-2", List.of()),
        of("node", "n9", "r4", "cdu-2", List.of()),
        of("node", "n1", "r1", "cdu-1", List.of()),
        of("pdu", "pdu-7", "r5", null, List.of("r5")),
        Fleet.node("n2", "r2", 8, 8, Fleet.T0));
    for (InventoryRecord r : records) {
      Topology.apply(r, inv, jobs);
    }
    Topology t = new Topology(inv, jobs);
    Map<String, java.util.TreeSet<String>> index = TopologyLookups.racksByCdu(t);
    for (String cdu : List.of("cdu-1", "cdu-2", "cdu-9", "pdu-7")) {
      assertThat(index.getOrDefault(cdu, new java.util.TreeSet<>())).as(cdu).isEqualTo(TopologyLookups.racksOfCdu(t, cdu));
    }
    assertThat(index.get("cdu-1")).containsExactly("r1", "r2");
    assertThat(index.get("cdu-2")).containsExactly("r3", "r4");
  }
}
