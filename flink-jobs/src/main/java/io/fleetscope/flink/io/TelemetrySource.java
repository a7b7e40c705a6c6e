package io.fleetscope.flink.io;

import io.fleetscope.schemas.Topics;
import java.io.Serializable;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where raw records come from: Kafka in production ({@link KafkaTelemetrySource}), a JSON-lines
 * file or a collection in analyze and tests ({@link CollectionSource}).
 */
public interface TelemetrySource extends Serializable {
  /**
   * The records of one raw topic, of the topic's value class; what could not be decoded comes in
   * the same stream as a {@link io.fleetscope.avro.DeadLetter} (type {@code AvroTypeInfo.anyOf(valueClass, DeadLetter.class)}),
   * with timestamps and watermarks from {@code watermarks}. A partitioned source applies them per
   * partition (split), so partitions read unevenly never make each other's records late.
   */
  DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks);

  /** True when every stream ends (batch execution is possible). */
  boolean bounded();
}
