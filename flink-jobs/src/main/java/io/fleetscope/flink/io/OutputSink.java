package io.fleetscope.flink.io;

import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Where outputs go: Kafka ({@link KafkaOutputSink}) or the client ({@link CollectedOutput}). */
public interface OutputSink {
  void attach(DataStream<SpecificRecord> outputs);

  /**
   * Attaches outputs that must not wait for the others (the fast paths' anomalies) through a sink
   * operator of their own, named after {@code name}. Returns false when this sink has no such
   * separate path; the outputs then go with {@link #attach}.
   */
  default boolean attachSeparately(DataStream<SpecificRecord> outputs, String name) {
    return false;
  }
}
