package io.fleetscope.serde;

import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;

/** Test-only registry: ids per schema, as a registry hands them out. Not a stand-in for the REST API. */
final class InMemoryRegistry implements SchemaRegistryClient {
  final Map<Integer, Schema> byId = new HashMap<>();
  final Map<String, Integer> ids = new HashMap<>();
  int registrations;

  @Override
  public synchronized int register(String subject, Schema schema) {
    registrations++;
    return ids.computeIfAbsent(schema.toString(), s -> {
      int id = byId.size() + 1;
      byId.put(id, schema);
      return id;
    });
  }

  @Override
  public synchronized Schema getById(int id) {
    Schema s = byId.get(id);
    if (s == null) {
      throw new RegistryException(404, 40403, "Schema " + id + " not found");
    }
    return s;
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    return true;
  }
}
