package io.fleetscope.agent.collectors.facility;

import io.fleetscope.avro.InventoryRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Pure: the {@code fleet.inventory.v1} record of a facility device (kind {@code pdu} or
 * {@code cdu}) from the site facts in its config: the racks it serves and, for a CDU, its loop.
 * The PDU and coolant collectors publish it the first time they read a device.
 */
public final class FacilityInventory {
  private FacilityInventory() {}

  /**
   * @param rack the rack the device sits in (may be null)
   * @param racks racks it serves; when empty and rack is set, [rack]
   * @param loop a CDU's loop id (null for a PDU)
   */
  public static InventoryRecord build(long ts, String cluster, String kind, String id, String rack, List<String> racks,
      String loop, Map<String, String> attributes) {
    LinkedHashSet<String> served = new LinkedHashSet<>(racks == null ? List.of() : racks);
    if (served.isEmpty() && rack != null) {
      served.add(rack);
    }
    return InventoryRecord.newBuilder()
        .setTs(ts).setCluster(cluster).setKind(kind).setId(id).setAgentSeq(0L)
        .setRack(rack)
        .setGpus(new ArrayList<>()).setHcas(new ArrayList<>()).setPduOutlets(new ArrayList<>())
        .setCduLoop(loop)
        .setRacks(new ArrayList<>(served))
        .setAttributes(new LinkedHashMap<>(attributes))
        .build();
  }
}
