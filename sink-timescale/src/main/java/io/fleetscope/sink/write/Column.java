package io.fleetscope.sink.write;

/** A table column: its name (= the Avro field name) and SQL type. */
public record Column(String name, ColumnType type) {
  /** The name as a quoted SQL identifier (some field names, e.g. row, offset, are reserved words). */
  public String sql() {
    return '"' + name + '"';
  }
}
