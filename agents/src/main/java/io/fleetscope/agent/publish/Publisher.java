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
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Publisher.class);
  public static final String SPOOLED = "fleetscope_agent_records_spooled_total";
  public static final String DROPPED = "fleetscope_agent_records_dropped_total";
  public static final String SPOOL_BYTES = "fleetscope_agent_spool_bytes";
  public static final String SEQ = "fleetscope_agent_seq_next";
  public static final String NO_SPACE = "fleetscope_agent_spool_disk_full_total";

  private final SeqStore seqs;
  private final Spool spool;
  private final SelfMetrics metrics;

  public Publisher(Path spoolDir, long maxBytes, long segmentBytes, SelfMetrics metrics) throws IOException {
    this(spoolDir, maxBytes, segmentBytes, metrics, Spool.Options.defaults());
  }

  /** @param options the spool's fsync interval and file access (and what counts a full disk) */
  public Publisher(Path spoolDir, long maxBytes, long segmentBytes, SelfMetrics metrics, Spool.Options options) throws IOException {
    this.metrics = metrics;
    metrics.declare(SPOOLED, "counter", "Records stamped with agent_seq and written to the spool.")
        .declare(DROPPED, "counter", "Records dropped unsent because the spool or its disk was full (oldest first).")
        .declare(NO_SPACE, "counter", "Spool writes that met a full disk (No space left on device).")
        .declare(SPOOL_BYTES, "gauge", "Bytes in the on-disk spool.")
        .declare(SEQ, "gauge", "The agent_seq the next record gets.");
    metrics.inc(DROPPED, "", 0);
    metrics.inc(SPOOLED, "", 0);
    metrics.inc(NO_SPACE, "", 0);
    this.seqs = new SeqStore(spoolDir);
    Runnable countNoSpace = () -> metrics.inc(NO_SPACE, "", 1);
    this.spool = new Spool(spoolDir, maxBytes, segmentBytes, n -> metrics.inc(DROPPED, "", n),
        new Spool.Options(options.syncInterval(), options.opener(), () -> {
          countNoSpace.run();
          options.onNoSpace().run();
        }));
    // the agent_seq file's rename may not have reached the disk before a power loss while spooled
    // records with higher numbers did (forced): never hand out a number the spool already holds
    long stored = seqs.peek();
    if (seqs.advanceTo(spool.lastSeq() + 1)) {
      log.warn("agent_seq behind the spool, advanced agent_seq_file={} next={}", stored, seqs.peek());
    }
    metrics.set(SPOOL_BYTES, "", spool.bytes());
    metrics.set(SEQ, "", seqs.peek());
  }

  public Spool spool() {
    return spool;
  }

  @Override
  public void accept(String collector, List<AgentRecord> records) throws IOException {
    accept(collector, records, null);
  }

  /** Spools the records with the collector's {@code checkpoint} (null: none) in the same write ({@link Spool.Mark}). */
  @Override
  public synchronized void accept(String collector, List<AgentRecord> records, String checkpoint) throws IOException {
    Spool.Mark mark = checkpoint == null ? null : new Spool.Mark(collector, checkpoint);
    if (records.isEmpty()) {
      if (mark != null) spool.append(List.of(), mark);
      return;
    }
    long seq;
    try {
      seq = reserve(records.size());
    } catch (IOException e) {
      if (!Spool.noSpace(e)) throw e;
      // the disk is too full even for the agent_seq file and the spool has nothing left to drop
      metrics.inc(DROPPED, "", records.size());
      log.warn("spool disk full, new records dropped records={} collector={} error={}", records.size(), collector, e.getMessage());
      return;
    }
    List<SpoolEntry> entries = new ArrayList<>(records.size());
    for (AgentRecord r : records) {
      stampSeq(r.value(), seq);
      Schema s = r.value().getSchema();
      entries.add(new SpoolEntry(r.topic(), r.key(), seq, RecordCodec.fingerprint(s), RecordCodec.encode(r.value())));
      seq++;
    }
    spool.append(entries, mark);
    metrics.inc(SPOOLED, "", entries.size());
    metrics.set(SPOOL_BYTES, "", spool.bytes());
    metrics.set(SEQ, "", seqs.peek());
  }

  @Override
  public boolean durable() {
    return true;
  }

  @Override
  public String checkpoint(String collector) {
    return spool.mark(collector);
  }

  /** Reserves agent_seq numbers; on a full disk drops the spool's oldest data (counted) until the number file fits. */
  private long reserve(int n) throws IOException {
    while (true) {
      try {
        return seqs.reserve(n);
      } catch (IOException e) {
        if (!Spool.noSpace(e)) throw e;
        metrics.inc(NO_SPACE, "", 1);
        if (!spool.freeSpace()) throw e;
      }
    }
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
