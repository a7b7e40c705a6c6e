package io.fleetscope.streams;

import io.fleetscope.serde.SchemaRegistryClient;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A schema registry held in memory, for the correlator topology run in a TopologyTestDriver: the
 * tests and {@link OfflineCorrelator} (the services use the real registry server). Same id for the
 * same schema across subjects, like Confluent's.
 */
final class InMemorySchemaRegistry implements SchemaRegistryClient {
  private final Map<Schema, Integer> ids = new HashMap<>();
  private final Map<Integer, Schema> byId = new HashMap<>();

  @Override
  public synchronized int register(String subject, Schema schema) {
    return ids.computeIfAbsent(schema, s -> {
      int id = ids.size() + 1;
      byId.put(id, s);
      return id;
    });
  }

  @Override
  public synchronized Schema getById(int id) {
    Schema s = byId.get(id);
    if (s == null) {
      throw new io.fleetscope.serde.RegistryException(404, 40403, "Schema " + id + " not found");
    }
    return s;
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    return true;
  }
}
