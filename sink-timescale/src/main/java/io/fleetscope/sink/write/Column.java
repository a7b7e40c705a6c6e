package io.fleetscope.sink.write;

import java.util.Set;

/**
 * A table column: its name (= the Avro field name), SQL type, and the type's name as
 * information_schema.columns.data_type spells it (which tells e.g. integer from smallint).
 */
public record Column(String name, ColumnType type, String dataType) {
  /** Data types whose COPY BINARY form {@link RowEncoder#encodeBinary} writes exactly. */
  private static final Set<String> BINARY = Set.of("timestamp with time zone", "text", "character varying", "bigint",
      "integer", "double precision", "boolean", "jsonb", "bytea");

  /** A column of the type's usual data type (timestamptz, text, bigint, integer, double precision, boolean, jsonb, bytea). */
  public Column(String name, ColumnType type) {
    this(name, type, switch (type) {
      case TIMESTAMPTZ -> "timestamp with time zone";
      case TEXT -> "text";
      case BIGINT -> "bigint";
      case INTEGER -> "integer";
      case DOUBLE -> "double precision";
      case BOOLEAN -> "boolean";
      case JSONB -> "jsonb";
      case BYTEA -> "bytea";
    });
  }

  /** The name as a quoted SQL identifier (some field names, e.g. row, offset, are reserved words). */
  public String sql() {
    return '"' + name + '"';
  }

  /** Whether values of this column can be sent in COPY's binary format. */
  public boolean binaryCopyable() {
    return BINARY.contains(dataType);
  }
}
