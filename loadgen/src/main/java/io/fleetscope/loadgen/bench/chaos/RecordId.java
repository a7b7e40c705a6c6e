package io.fleetscope.loadgen.bench.chaos;

import io.fleetscope.schemas.Topics;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * One raw record as its agent numbered it: the topic, the node (or facility device) and the
 * agent's {@code agent_seq}. Two records with the same id are the same record sent twice.
 */
public record RecordId(String topic, String source, long seq) implements Comparable<RecordId> {
  /** The raw telemetry topics, each stored in a raw table of its own. */
  public static final Set<String> RAW_TOPICS = Set.of(Topics.GPU, Topics.GPU_XID, Topics.IB, Topics.PDU, Topics.COOLANT,
      Topics.CKPT);

  /** The id of a raw telemetry record, or null for any other (inventory, jobs, derived). */
  public static RecordId of(String topic, IndexedRecord value) {
    if (!RAW_TOPICS.contains(topic)) {
      return null;
    }
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
