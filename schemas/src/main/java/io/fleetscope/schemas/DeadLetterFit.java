package io.fleetscope.schemas;

import io.fleetscope.avro.DeadLetter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Makes a {@link DeadLetter} small enough for the producer that writes it: a dead letter whose
 * record is larger than the producer's {@code max.request.size} would be refused by Kafka and lost
 * without a trace. One that does not fit keeps the start of its payload and payload_json, cut to
 * fit, and says so at the end of its reason: {@code [truncated to fit 1048576 bytes: payload 4096
 * of 2000000 bytes, payload_json 0 of 0 chars]}. Pure; writers count and log what it cut.
 */
public final class DeadLetterFit {
  /** Kafka's default max.request.size (the broker's default message.max.bytes is about the same). */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 1_048_576;
  /** What a truncated dead letter's reason contains. */
  public static final String TRUNCATED_MARK = " [truncated to fit ";
  /** Left for the record batch and record headers, the Kafka key and the wire-format header. */
  static final int OVERHEAD_BYTES = 1024;
  /** Reason and key are cut to this many chars when they alone would not fit. */
  static final int MAX_TEXT_CHARS = 2048;

  /** The dead letter to send, and what was cut from it. */
  public record Fitted(DeadLetter deadLetter, boolean truncated, int payloadBytes, int payloadJsonChars) {
    /**
     * What was cut, for every writer's one log line: {@code stage= source_topic= partition= offset=
     * payload_bytes= payload_json_chars= max_request_bytes=} (sizes before the cut).
     */
    public String describe(int maxRequestBytes) {
      return "stage=" + deadLetter.getStage() + " source_topic=" + deadLetter.getSourceTopic() + " partition="
          + deadLetter.getPartition() + " offset=" + deadLetter.getOffset() + " payload_bytes=" + payloadBytes
          + " payload_json_chars=" + payloadJsonChars + " max_request_bytes=" + maxRequestBytes;
    }
  }

  private DeadLetterFit() {}

  /**
   * {@code dl} unchanged when its encoding fits in {@code maxRequestBytes} (minus room for the
   * batch overhead and a key as long as its own), else a copy with payload and payload_json cut from
   * the end until it does, and the original sizes in the reason.
   */
  public static Fitted fit(DeadLetter dl, int maxRequestBytes) {
    int payloadBytes = dl.getPayload() == null ? 0 : dl.getPayload().remaining();
    int jsonChars = dl.getPayloadJson() == null ? 0 : dl.getPayloadJson().length();
    String key = dl.getKey();
    int keyBytes = key == null ? 0 : utf8(key);
    int budget = maxRequestBytes - OVERHEAD_BYTES - Math.min(keyBytes, MAX_TEXT_CHARS * 4);
    if (budget <= 0) {
      throw new IllegalArgumentException("max request size " + maxRequestBytes + " leaves no room for a dead letter");
    }
    if (encodedSize(dl) <= budget) {
      return new Fitted(dl, false, payloadBytes, jsonChars);
    }
    String reason = dl.getReason();
    String shortReason = reason.length() > MAX_TEXT_CHARS ? reason.substring(0, MAX_TEXT_CHARS) : reason;
    String shortKey = key != null && key.length() > MAX_TEXT_CHARS ? key.substring(0, MAX_TEXT_CHARS) : key;
    int keepPayload = payloadBytes;
    int keepJson = jsonChars;
    while (true) {
      DeadLetter cut = cut(dl, shortReason, shortKey, keepPayload, keepJson, maxRequestBytes, payloadBytes, jsonChars);
      int excess = encodedSize(cut) - budget;
      if (excess <= 0) {
        return new Fitted(cut, true, payloadBytes, jsonChars);
      }
      if (keepPayload == 0 && keepJson == 0) {
        throw new IllegalStateException("a dead letter without payload is still " + excess + " bytes over " + budget);
      }
      // a char is at least one byte: cutting `excess` of the larger part removes at least `excess` bytes
      if (keepPayload >= keepJson) {
        keepPayload = Math.max(0, keepPayload - excess - 16);
      } else {
        keepJson = Math.max(0, keepJson - excess - 16);
      }
    }
  }

  private static DeadLetter cut(DeadLetter dl, String reason, String key, int keepPayload, int keepJson,
      int maxRequestBytes, int payloadBytes, int jsonChars) {
    DeadLetter.Builder b = DeadLetter.newBuilder(dl)
        .setKey(key)
        .setReason(reason + TRUNCATED_MARK + maxRequestBytes + " bytes: payload " + keepPayload + " of " + payloadBytes
            + " bytes, payload_json " + keepJson + " of " + jsonChars + " chars]");
    if (dl.getPayload() != null) {
      ByteBuffer p = dl.getPayload().duplicate();
      p.limit(p.position() + keepPayload);
      b.setPayload(p.slice());
    }
    if (dl.getPayloadJson() != null) {
      String j = dl.getPayloadJson();
      int end = keepJson;
      if (end > 0 && end < j.length() && Character.isHighSurrogate(j.charAt(end - 1))) {
        end--; // never split a surrogate pair
      }
      b.setPayloadJson(j.substring(0, end));
    }
    return b.build();
  }

  static int encodedSize(DeadLetter dl) {
    try {
      return dl.toByteBuffer().remaining();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
