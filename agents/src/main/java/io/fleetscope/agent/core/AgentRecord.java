package io.fleetscope.agent.core;

import org.apache.avro.specific.SpecificRecord;

/** A record ready to publish: its topic, its key (node or device id) and its Avro value. */
public record AgentRecord(String topic, String key, SpecificRecord value) {}
