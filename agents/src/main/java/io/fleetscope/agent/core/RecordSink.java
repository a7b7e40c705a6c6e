package io.fleetscope.agent.core;

import java.util.List;

/** Where a round's records go: the publisher (spool, then Kafka) or the dry-run printer. Thread-safe. */
public interface RecordSink {
  void accept(String collector, List<AgentRecord> records) throws Exception;

  /**
   * Takes a round's records with the collector's {@link Collector#checkpoint} (null: none). A durable
   * sink keeps both in one write, so that after a crash at any point it holds both or neither.
   * Default (nothing durable): the checkpoint is ignored.
   */
  default void accept(String collector, List<AgentRecord> records, String checkpoint) throws Exception {
    if (!records.isEmpty()) accept(collector, records);
  }

  /** The newest checkpoint this sink holds for {@code collector}, or null (default: none kept). */
  default String checkpoint(String collector) throws Exception {
    return null;
  }

  /**
   * True when records are on disk once {@link #accept} returns (the spool): the scheduler then
   * tells the collector ({@link Collector#committed}) so it may persist how far it has read.
   */
  default boolean durable() {
    return false;
  }
}
