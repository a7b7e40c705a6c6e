package io.fleetscope.agent.core;

import java.util.List;

/** Where a round's records go: the publisher (spool, then Kafka) or the dry-run printer. Thread-safe. */
public interface RecordSink {
  void accept(String collector, List<AgentRecord> records) throws Exception;
}
