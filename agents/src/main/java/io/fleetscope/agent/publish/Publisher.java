package io.fleetscope.agent.publish;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.RecordSink;
import io.fleetscope.agent.schedule.SelfMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Stamps {@code agent_seq} on every record (numbers persisted in the spool directory) and appends the
 * records to the on-disk {@link Spool}; a {@link KafkaSender} drains the spool to Kafka in order.
 */
public final class Publisher implements RecordSink, AutoCloseable {
  public static final String SPOOLED = "fleetscope_agent_records_spooled_total";
  public static final String DROPPED = "fleetscope_agent_records_dropped_total";
  public static final String SPOOL_BYTES = "fleetscope_agent_spool_bytes";
  public static final String SEQ = "fleetscope_agent_seq_next";

  private final SeqStore seqs;
  private final Spool spool;
  private final SelfMetrics metrics;

  public Publisher(Path spoolDir, long maxBytes, long segmentBytes, SelfMetrics metrics) throws IOException {
    this.metrics = metrics;
    metrics.declare(SPOOLED, "counter", "Records stamped with agent_seq and written to the spool.")
        .declare(DROPPED, "counter", "Records dropped unsent because the spool was full (oldest first).")
        .declare(SPOOL_BYTES, "gauge", "Bytes in the on-disk spool.")
        .declare(SEQ, "gauge", "The agent_seq the next record gets.");
    metrics.inc(DROPPED, "", 0);
    metrics.inc(SPOOLED, "", 0);
    this.seqs = new SeqStore(spoolDir);
    this.spool = new Spool(spoolDir, maxBytes, segmentBytes, n -> metrics.inc(DROPPED, "", n));
    metrics.set(SPOOL_BYTES, "", spool.bytes());
    metrics.set(SEQ, "", seqs.peek());
  }

  public Spool spool() {
    return spool;
  }

  @Override
  public synchronized void accept(String collector, List<AgentRecord> records) throws IOException {
    if (records.isEmpty()) return;
    long seq = seqs.reserve(records.size());
    List<SpoolEntry> entries = new ArrayList<>(records.size());
    for (AgentRecord r : records) {
      stampSeq(r.value(), seq);
      Schema s = r.value().getSchema();
      entries.add(new SpoolEntry(r.topic(), r.key(), seq, RecordCodec.fingerprint(s), RecordCodec.encode(r.value())));
      seq++;
    }
    spool.append(entries);
    metrics.inc(SPOOLED, "", entries.size());
    metrics.set(SPOOL_BYTES, "", spool.bytes());
    metrics.set(SEQ, "", seqs.peek());
  }

  /** Sets the record's {@code agent_seq} field (every FleetScope raw record has one). */
  public static void stampSeq(SpecificRecord r, long seq) {
    Schema.Field f = r.getSchema().getField("agent_seq");
    if (f == null) throw new IllegalArgumentException(r.getSchema().getFullName() + " has no agent_seq field");
    r.put(f.pos(), seq);
  }

  @Override
  public void close() throws IOException {
    spool.close();
  }
}
