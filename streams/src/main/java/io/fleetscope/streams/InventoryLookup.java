package io.fleetscope.streams;

import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.contract.AlertLabels;
import java.util.Map;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/** Topology lookups over fleet.inventory.v1 (node, rack, pdu and cdu records keyed by id). */
public interface InventoryLookup {

  /** The inventory record with this key, or null. */
  InventoryRecord get(String id);

  /** Where a node sits: rack, CDU and CDU loop (node record first, then its rack's record). */
  record NodeTopology(String node, String rack, String cdu, String cduLoop) {}

  default NodeTopology topologyOf(String node, Map<String, String> labels) {
    InventoryRecord n = node == null ? null : get(node);
    String rack = n != null && n.getRack() != null ? n.getRack() : labels.get(AlertLabels.RACK);
    String cdu = n != null ? n.getCdu() : null;
    String loop = n != null ? n.getCduLoop() : null;
    if ((cdu == null || loop == null) && rack != null) {
      InventoryRecord r = get(rack);
      if (r != null && "rack".equals(r.getKind())) {
        cdu = cdu != null ? cdu : r.getCdu();
        loop = loop != null ? loop : r.getCduLoop();
      }
    }
    if (loop == null) {
      loop = labels.getOrDefault(AlertLabels.CDU_LOOP, null);
    }
    if (cdu == null) {
      cdu = labels.getOrDefault(AlertLabels.CDU, null);
    }
    return new NodeTopology(node, rack, cdu, loop);
  }

  /** The rail of a node's HCA port from its inventory record, or null. */
  default String railOf(String node, String device, String port) {
    InventoryRecord n = node == null ? null : get(node);
    if (n == null || device == null) {
      return null;
    }
    for (HcaInfo h : n.getHcas()) {
      if (device.equals(h.getDevice()) && (port == null || port.equals(String.valueOf(h.getPort()))) && h.getRail() != null) {
        return String.valueOf(h.getRail());
      }
    }
    return null;
  }

  /**
   * Remembers answers of {@code inner} for {@code ttlMs} (inventory changes rarely; regrouping a cluster
   * looks up every member's node). {@code clock} gives wall-clock ms.
   */
  static InventoryLookup cached(InventoryLookup inner, long ttlMs, java.util.function.LongSupplier clock) {
    if (ttlMs <= 0) {
      return inner;
    }
    record Entry(InventoryRecord value, long loadedAt) {}
    Map<String, Entry> cache = new java.util.HashMap<>();
    return id -> {
      long now = clock.getAsLong();
      Entry e = cache.get(id);
      if (e == null || now - e.loadedAt() >= ttlMs) {
        if (cache.size() > 100_000) {
          cache.clear();
        }
        e = new Entry(inner.get(id), now);
        cache.put(id, e);
      }
      return e.value();
    };
  }

  /** A lookup over the GlobalKTable's store as a processor sees it (values may come wrapped with timestamps). */
  static InventoryLookup of(ReadOnlyKeyValueStore<String, ?> store) {
    return id -> {
      Object v = store.get(id);
      if (v instanceof ValueAndTimestamp<?> vt) {
        v = vt.value();
      }
      return (InventoryRecord) v;
    };
  }
}
