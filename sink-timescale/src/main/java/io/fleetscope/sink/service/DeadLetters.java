package io.fleetscope.sink.service;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.sink.write.Reject;
import java.nio.ByteBuffer;

/** Builds the {@link DeadLetter} record of a rejected record. */
public final class DeadLetters {
  public static final String STAGE = "sink";

  private DeadLetters() {}

  public static DeadLetter of(Reject r, long now) {
    String json = null;
    if (r.record().value() != null) {
      try {
        json = clean(JsonLines.valueToJson(r.record().value()));
      } catch (RuntimeException e) {
        json = null;
      }
    }
    return DeadLetter.newBuilder()
        .setTs(now)
        .setStage(STAGE)
        .setReason(clean(r.reason()))
        .setSourceTopic(r.record().topic())
        .setPartition(r.record().partition())
        .setOffset(r.record().offset())
        .setKey(r.record().key() == null ? null : clean(r.record().key()))
        .setPayload(r.record().payload() == null ? null : ByteBuffer.wrap(r.record().payload()))
        .setPayloadJson(json)
        .setErrorClass(r.errorClass())
        .build();
  }

  /** PostgreSQL text cannot hold NUL; keep it visible as an escape instead. */
  static String clean(String s) {
    return s == null ? null : s.replace("\u0000", "\\u0000");
  }
}
