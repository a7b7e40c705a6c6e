package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.testing.Fleet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.BroadcastState;
import org.junit.jupiter.api.Test;

/** The one-pass CDU index gives every CDU the racks the per-CDU scan gives it. */
class TopologyLookupsTest {
  /** A broadcast state over a plain map. */
  static final class MapState<K, V> implements BroadcastState<K, V> {
    final Map<K, V> m = new HashMap<>();

    @Override public void put(K key, V value) { m.put(key, value); }
    @Override public void putAll(Map<K, V> map) { m.putAll(map); }
    @Override public void remove(K key) { m.remove(key); }
    @Override public Iterator<Map.Entry<K, V>> iterator() { return m.entrySet().iterator(); }
    @Override public Iterable<Map.Entry<K, V>> entries() { return m.entrySet(); }
    @Override public V get(K key) { return m.get(key); }
    @Override public boolean contains(K key) { return m.containsKey(key); }
    @Override public Iterable<Map.Entry<K, V>> immutableEntries() { return Map.copyOf(m).entrySet(); }
    @Override public void clear() { m.clear(); }
  }

  private static InventoryRecord of(String kind, String id, String rack, String cdu, List<String> racks) {
    return InventoryRecord.newBuilder().setTs(Fleet.T0).setCluster("c1").setKind(kind).setId(id).setRack(rack).setCdu(cdu)
        .setRacks(racks).build();
  }

  @Test
  void theIndexAgreesWithTheScanForEveryCdu() throws Exception {
    MapState<String, InventoryRecord> inv = new MapState<>();
    MapState<String, io.fleetscope.avro.JobAllocations> jobs = new MapState<>();
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
