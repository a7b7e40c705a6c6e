package io.fleetscope.loadgen.output;

import io.fleetscope.loadgen.sim.SimRecord;

/** Where generated records go: a JSON-lines file or Kafka. */
public interface RecordSink extends AutoCloseable {
  void accept(SimRecord record);

  /** Blocks until everything accepted so far is written (file flushed, Kafka acknowledged). */
  void flush();

  /** Records that could not be written (e.g. Kafka send failures), counted, never silently dropped. */
  long failed();

  @Override
  void close();
}
