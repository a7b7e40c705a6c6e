package io.fleetscope.loadgen.bench.chaos;

import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * One raw record as its agent numbered it: the topic, the node (or facility device) and the
 * agent's {@code agent_seq}. Two records with the same id are the same record sent twice.
 */
public record RecordId(String topic, String source, long seq) implements Comparable<RecordId> {

  /** The id of a raw record, or null for a record without {@code agent_seq} (inventory, jobs). */
  public static RecordId of(String topic, IndexedRecord value) {
    Schema s = value.getSchema();
    Schema.Field seq = s.getField("agent_seq");
    Schema.Field src = s.getField("node") != null ? s.getField("node") : s.getField("device");
    if (seq == null || src == null || value.get(seq.pos()) == null) {
      return null;
    }
    return new RecordId(topic, String.valueOf(value.get(src.pos())), ((Number) value.get(seq.pos())).longValue());
  }

  @Override
  public int compareTo(RecordId o) {
    int c = topic.compareTo(o.topic);
    if (c == 0) {
      c = source.compareTo(o.source);
    }
    return c != 0 ? c : Long.compare(seq, o.seq);
  }

  @Override
  public String toString() {
    return topic + "/" + source + "/" + seq;
  }
}
