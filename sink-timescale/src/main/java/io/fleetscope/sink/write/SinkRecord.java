package io.fleetscope.sink.write;

import org.apache.avro.specific.SpecificRecord;

/**
 * One consumed record: where it came from, its key, its original bytes and its decoded value
 * (null for a tombstone on a compacted topic).
 */
public record SinkRecord(String topic, int partition, long offset, String key, byte[] payload, SpecificRecord value) {}
