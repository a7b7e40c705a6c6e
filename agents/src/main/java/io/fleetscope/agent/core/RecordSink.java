package io.fleetscope.agent.core;

import java.util.List;

/** Where a round's records go: the publisher (spool, then Kafka) or the dry-run printer. Thread-safe. */
public interface RecordSink {
  void accept(String collector, List<AgentRecord> records) throws Exception;

  /**
   * True when records are on disk once {@link #accept} returns (the spool): the scheduler then
   * tells the collector ({@link Collector#committed}) so it may persist how far it has read.
   */
  default boolean durable() {
    return false;
  }
}
