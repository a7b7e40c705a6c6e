package io.fleetscope.loadgen.sim;

import io.fleetscope.schemas.JsonLines;
import org.apache.avro.specific.SpecificRecord;

/** One generated record: its topic, its Kafka key and its Avro value. */
public record SimRecord(String topic, String key, SpecificRecord value) {

  public JsonLines.Line toLine() {
    return new JsonLines.Line(topic, key, value);
  }
}
