package io.fleetscope.flink.io;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.schemas.Topics;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Topic and key of every output record. The topic follows from the class (one class per topic,
 * {@link Topics}); the key per ARCHITECTURE: RailBandwidth by cluster/rail, Anomaly by fingerprint,
 * DeadLetter by its key, other records by node, else device, else job.
 */
public final class OutputRouting {
  private static final Map<Class<?>, String> TOPIC = new HashMap<>();

  static {
    for (Topics.TopicSpec t : Topics.all().values()) {
      TOPIC.putIfAbsent(t.valueClass(), t.name());
    }
  }

  private OutputRouting() {}

  public static String topicOf(SpecificRecord r) {
    String t = TOPIC.get(r.getClass());
    if (t == null) {
      throw new IllegalArgumentException("no topic carries " + r.getClass().getName());
    }
    return t;
  }

  public static String keyOf(SpecificRecord r) {
    if (r instanceof RailBandwidth rb) {
      return rb.getCluster() + "/" + rb.getRail();
    }
    if (r instanceof Anomaly a) {
      return a.getFingerprint();
    }
    if (r instanceof DeadLetter d) {
      return d.getKey();
    }
    Schema s = r.getSchema();
    for (String f : new String[] {"node", "device", "job", "id"}) {
      Schema.Field field = s.getField(f);
      if (field != null && r.get(field.pos()) != null) {
        return r.get(field.pos()).toString();
      }
    }
    return null;
  }
}
