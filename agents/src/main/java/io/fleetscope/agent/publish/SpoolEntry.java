package io.fleetscope.agent.publish;

/**
 * One spooled record: topic, key, its {@code agent_seq}, the fingerprint of the Avro schema it was
 * written with, and its Avro binary body (schema-less, so spooling needs no registry).
 */
public record SpoolEntry(String topic, String key, long seq, long schemaFingerprint, byte[] avro) {
  /** A {@link Spool.Mark} (empty topic): a collector's state, never sent. */
  public boolean isMark() {
    return topic.isEmpty();
  }
}
