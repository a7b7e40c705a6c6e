package io.fleetscope.sink.write;

/** The SQL column types FleetScope tables use, from information_schema.columns.data_type. */
public enum ColumnType {
  TIMESTAMPTZ, TEXT, BIGINT, INTEGER, DOUBLE, BOOLEAN, JSONB, BYTEA;

  public static ColumnType of(String dataType) {
    return switch (dataType) {
      case "timestamp with time zone" -> TIMESTAMPTZ;
      case "text", "character varying" -> TEXT;
      case "bigint" -> BIGINT;
      case "integer", "smallint" -> INTEGER;
      case "double precision", "real", "numeric" -> DOUBLE;
      case "boolean" -> BOOLEAN;
      case "jsonb", "json" -> JSONB;
      case "bytea" -> BYTEA;
      default -> throw new IllegalArgumentException("unsupported column type '" + dataType + "'");
    };
  }
}
