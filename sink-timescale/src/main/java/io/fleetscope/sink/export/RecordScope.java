package io.fleetscope.sink.export;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.Topics;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The scope filter of {@link BundleExporter}'s SQL, for records read from Kafka: the clusters (the
 * record's {@code cluster}, or its label), and for a narrowed scope the nodes, devices and racks
 * (inventory by id, anomalies by label, raw records by node or device, dead letters by key; derived
 * streams without a node or device, and dead letters without a key, are kept). Incident versions are
 * chosen by the exporter itself.
 */
final class RecordScope {
  private final ScopeResolver.Resolved s;

  RecordScope(ScopeResolver.Resolved s) {
    this.s = s;
  }

  boolean matches(String topic, SpecificRecord r) {
    return inClusters(r) && (!s.narrowed() || narrowed(topic, r));
  }

  private boolean inClusters(SpecificRecord r) {
    if (s.clusters().isEmpty()) {
      return true;
    }
    Object c;
    if (r instanceof Anomaly a) {
      c = a.getLabels().get("cluster");
    } else if (r instanceof Alert a) {
      c = a.getLabels().get("cluster");
    } else if (r.getSchema().getField("cluster") == null) {
      return true; // as in SQL: a table without a cluster column is not filtered by cluster
    } else {
      c = field(r, "cluster");
    }
    return c != null && s.clusters().contains(c.toString());
  }

  private boolean narrowed(String topic, SpecificRecord r) {
    if (r instanceof InventoryRecord i) {
      return s.nodes().contains(i.getId()) || s.devices().contains(i.getId());
    }
    if (r instanceof Anomaly a) {
      Map<String, String> l = a.getLabels();
      return s.nodes().contains(l.get("node")) || s.devices().contains(l.get("device")) || s.devices().contains(l.get("cdu"))
          || s.devices().contains(l.get("pdu")) || s.racks().contains(l.get("rack"));
    }
    if (r instanceof DeadLetter d) {
      return d.getKey() == null || s.nodes().contains(d.getKey()) || s.devices().contains(d.getKey());
    }
    if (topic.equals(Topics.ALERTS)) {
      return true;
    }
    Schema schema = r.getSchema();
    if (schema.getField("node") != null) {
      return s.nodes().contains(String.valueOf(field(r, "node")));
    }
    if (schema.getField("device") != null) {
      return s.devices().contains(String.valueOf(field(r, "device")));
    }
    return true;
  }

  private static Object field(SpecificRecord r, String name) {
    Schema.Field f = r.getSchema().getField(name);
    return f == null ? null : r.get(f.pos());
  }
}
