package io.fleetscope.schemas;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Finds the Avro schema of a generated class. */
public final class SchemaLookup {
  private SchemaLookup() {}

  public static Schema schemaOf(Class<? extends SpecificRecord> c) {
    return SpecificData.get().getSchema(c);
  }
}
