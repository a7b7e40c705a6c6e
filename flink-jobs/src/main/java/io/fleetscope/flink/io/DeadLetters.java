package io.fleetscope.flink.io;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import org.apache.avro.specific.SpecificRecord;

/** Builds fleet.dlq.v1 records for the flink-jobs stage. */
public final class DeadLetters {
  public static final String STAGE = "flink-jobs";
  /** Reason prefix of records that arrived after the allowed lateness. */
  public static final String LATE = "late: ";
  private static final int MAX_JSON = 8192;

  private DeadLetters() {}

  /** A decoded record that failed validation (or came late). */
  public static DeadLetter rejected(String topic, SpecificRecord r, String reason, long now) {
    String json;
    try {
      json = JsonLines.valueToJson(r);
      if (json.length() > MAX_JSON) {
        json = json.substring(0, MAX_JSON);
      }
    } catch (RuntimeException e) {
      json = null;
    }
    return DeadLetter.newBuilder()
        .setTs(now)
        .setStage(STAGE)
        .setReason(reason)
        .setSourceTopic(topic)
        .setKey(Records.nodeOrDevice(r))
        .setPayloadJson(json)
        .build();
  }

  /** Bytes or text that could not be decoded at all. */
  public static DeadLetter undecodable(String topic, Integer partition, Long offset, String key,
      byte[] payload, String payloadText, Throwable error, long now) {
    return DeadLetter.newBuilder()
        .setTs(now)
        .setStage(STAGE)
        .setReason("undecodable: " + (error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage()))
        .setSourceTopic(topic)
        .setPartition(partition)
        .setOffset(offset)
        .setKey(key)
        .setPayload(payload == null ? null : java.nio.ByteBuffer.wrap(payload))
        .setPayloadJson(payloadText)
        .setErrorClass(error.getClass().getName())
        .build();
  }
}
