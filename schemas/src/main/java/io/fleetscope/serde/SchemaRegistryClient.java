package io.fleetscope.serde;

import org.apache.avro.Schema;

/**
 * The part of the Confluent Schema Registry REST API that FleetScope uses. Implementations must work
 * unchanged against Confluent Schema Registry, Karapace, Redpanda and Apicurio's ccompat API.
 */
public interface SchemaRegistryClient {

  /**
   * Registers {@code schema} under {@code subject} ({@code POST /subjects/{s}/versions}), or finds it if
   * it is already registered there.
   *
   * @return the registry's global id of the schema
   * @throws RegistryException with HTTP status 409 when the schema is incompatible with the subject,
   *     422 when it is invalid, or when the registry cannot be reached
   */
  int register(String subject, Schema schema);

  /** The schema with a global id ({@code GET /schemas/ids/{id}}); 404/40403 when unknown. */
  Schema getById(int id);

  /**
   * Whether {@code schema} is compatible with the latest version of {@code subject} under the subject's
   * compatibility level ({@code POST /compatibility/subjects/{s}/versions/latest}). A subject with no
   * version yet is compatible with anything.
   */
  boolean testCompatibility(String subject, Schema schema);
}
