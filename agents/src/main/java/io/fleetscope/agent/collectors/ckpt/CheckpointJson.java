package io.fleetscope.agent.collectors.ckpt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Pure: the JSON body of a checkpoint post to a {@link CheckpointPost}, or an
 * {@link IllegalArgumentException} whose message tells the job what to fix.
 *
 * <pre>{"job": "llama-70b-run3", "step": 12000, "status": "completed", "bytes": 1400000000000,
 *  "tier": "lustre", "started_ts": 1764680000000, "finished_ts": 1764680042000, "ranks": 512}</pre>
 */
public final class CheckpointJson {

  public static final List<String> STATUSES = List.of("started", "completed", "failed");
  public static final Set<String> FIELDS =
      Set.of("job", "step", "bytes", "tier", "status", "started_ts", "finished_ts", "ranks");
  /** Epoch milliseconds below this (2001-09-09) are almost certainly seconds. */
  static final long MIN_EPOCH_MS = 1_000_000_000_000L;
  static final int MAX_TEXT = 256;

  private static final ObjectMapper JSON = new ObjectMapper();

  private CheckpointJson() {}

  public static CheckpointPost parse(byte[] body) {
    JsonNode n;
    try {
      n = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("body is not JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("body is not readable: " + e.getMessage());
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("body must be one JSON object with job, step, status (and bytes, tier, started_ts, finished_ts, ranks)");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) {
        throw new IllegalArgumentException("unknown field '" + f + "' (known: " + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
      }
    }
    String job = text(n, "job", true);
    String status = text(n, "status", true);
    if (!STATUSES.contains(status)) {
      throw new IllegalArgumentException("status must be one of " + STATUSES + ", got '" + status + "'");
    }
    long step = integer(n, "step", true);
    Long bytes = integer(n, "bytes", false);
    if (bytes == null && status.equals("completed")) {
      throw new IllegalArgumentException("bytes is required when status is completed");
    }
    String tier = text(n, "tier", false);
    Long started = timestamp(n, "started_ts");
    Long finished = timestamp(n, "finished_ts");
    if (started != null && finished != null && finished < started) {
      throw new IllegalArgumentException("finished_ts (" + finished + ") is before started_ts (" + started + ")");
    }
    if (status.equals("started") && finished != null) {
      throw new IllegalArgumentException("a started event has no finished_ts");
    }
    Long ranks = integer(n, "ranks", false);
    if (ranks != null && (ranks < 1 || ranks > Integer.MAX_VALUE)) {
      throw new IllegalArgumentException("ranks must be a positive integer, got " + ranks);
    }
    return new CheckpointPost(job, step, bytes == null ? 0L : bytes, tier == null ? "unknown" : tier, status,
        started, finished, ranks == null ? null : ranks.intValue());
  }

  private static String text(JsonNode n, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException(field + " is required");
      }
      return null;
    }
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(field + " must be a non-empty string");
    }
    if (v.asText().length() > MAX_TEXT) {
      throw new IllegalArgumentException(field + " is longer than " + MAX_TEXT + " characters");
    }
    return v.asText();
  }

  private static Long integer(JsonNode n, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException(field + " is required");
      }
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException(field + " must be an integer, got " + v);
    }
    long l = v.asLong();
    if (l < 0) {
      throw new IllegalArgumentException(field + " must not be negative, got " + l);
    }
    return l;
  }

  private static Long timestamp(JsonNode n, String field) {
    Long v = integer(n, field, false);
    if (v != null && v < MIN_EPOCH_MS) {
      throw new IllegalArgumentException(field + " must be epoch milliseconds (e.g. int(time.time() * 1000)), got " + v + " which looks like seconds");
    }
    return v;
  }
}
