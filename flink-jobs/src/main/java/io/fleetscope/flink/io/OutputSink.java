package io.fleetscope.flink.io;

import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Where outputs go: Kafka ({@link KafkaOutputSink}) or the client ({@link CollectedOutput}). */
public interface OutputSink {
  void attach(DataStream<SpecificRecord> outputs);
}
