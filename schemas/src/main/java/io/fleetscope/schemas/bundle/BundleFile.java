package io.fleetscope.schemas.bundle;

import java.util.List;

/**
 * One file of a bundle as the manifest lists it.
 *
 * @param file path relative to the bundle directory
 * @param topic the topic whose records it holds; null for labels and settings
 * @param role what it holds
 * @param source where its records came from
 * @param keyField the value field that is the record key on the topic (null: no key)
 * @param records number of records (lines for a text file)
 * @param bytes size on disk
 * @param sha256 hex SHA-256 of the file's bytes
 * @param schemaFingerprint hex CRC-64-AVRO parsing fingerprint of the writer schema; null for a text file
 * @param schemaId the schema registry's id of that schema when the records came from Kafka; null otherwise
 * @param writerSchemaIds the registry ids of the schemas the records were written with, when they came from Kafka
 *     (several when producers of different versions wrote them; the file holds them in its one schema)
 */
public record BundleFile(String file, String topic, BundleRole role, RecordSource source, String keyField, long records,
    long bytes, String sha256, String schemaFingerprint, Integer schemaId, List<Integer> writerSchemaIds) {

  public BundleFile {
    writerSchemaIds = writerSchemaIds == null ? List.of() : List.copyOf(writerSchemaIds);
  }

  /** A file with no writer schema ids (not read from Kafka). */
  public BundleFile(String file, String topic, BundleRole role, RecordSource source, String keyField, long records,
      long bytes, String sha256, String schemaFingerprint, Integer schemaId) {
    this(file, topic, role, source, keyField, records, bytes, sha256, schemaFingerprint, schemaId, List.of());
  }

  public boolean isAvro() {
    return topic != null;
  }
}
