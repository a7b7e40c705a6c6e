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

  /**
   * A second reader of the topic with operators of its own (names and uids carry {@code reader}),
   * reading the same records independently of the first: what reads one stays unaffected by
   * backpressure on the other. A consumer-group based source uses a group of its own for it.
   *
   * @throws UnsupportedOperationException when the source has one reader per topic only
   */
  default DataStream<SpecificRecord> openReader(StreamExecutionEnvironment env, Topics.TopicSpec topic,
      WatermarkStrategy<SpecificRecord> watermarks, String reader) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " has one reader per topic");
  }

  /** True when every stream ends (batch execution is possible). */
  boolean bounded();
}
