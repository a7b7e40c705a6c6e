package io.fleetscope.sink.write;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Encodes Avro records as PostgreSQL COPY CSV lines for a list of columns: column names are the
 * Avro field names; epoch-millisecond longs go into timestamptz columns, maps/arrays/records into
 * jsonb, bytes into bytea. NULL is the unquoted empty field; every text value is quoted.
 */
public final class RowEncoder {
  private static final HexFormat HEX = HexFormat.of();
  private final List<Column> columns;
  private final int[] positions;

  /**
   * @throws IllegalArgumentException if the schema has a field no column stores, or a column
   *     has no field (so that no field is ever dropped silently)
   */
  public RowEncoder(Schema schema, List<Column> columns, String table) {
    this.columns = List.copyOf(columns);
    this.positions = new int[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      Schema.Field f = schema.getField(columns.get(i).name());
      if (f == null) {
        throw new IllegalArgumentException("table " + table + " column " + columns.get(i).name()
            + " has no field in schema " + schema.getFullName());
      }
      positions[i] = f.pos();
    }
    for (Schema.Field f : schema.getFields()) {
      if (columns.stream().noneMatch(c -> c.name().equals(f.name()))) {
        throw new IllegalArgumentException("schema " + schema.getFullName() + " field " + f.name()
            + " has no column in table " + table + ": add it with a migration");
      }
    }
  }

  public List<Column> columns() {
    return columns;
  }

  /** Appends one CSV line (with newline) for the record. */
  public void encode(IndexedRecord r, StringBuilder out) {
    for (int i = 0; i < positions.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      appendValue(columns.get(i), r.get(positions[i]), out);
    }
    out.append('\n');
  }

  static void appendValue(Column c, Object v, StringBuilder out) {
    if (v == null) {
      return;
    }
    switch (c.type()) {
      case TIMESTAMPTZ -> out.append(Instant.ofEpochMilli(((Number) v).longValue()));
      case BIGINT, INTEGER -> out.append(((Number) v).longValue());
      case DOUBLE -> out.append(((Number) v).doubleValue());
      case BOOLEAN -> out.append(((Boolean) v) ? 't' : 'f');
      case TEXT -> quote(v.toString(), out);
      case JSONB -> quote(AvroJson.toJson(v), out);
      case BYTEA -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        out.append("\"\\x").append(HEX.formatHex(bytes)).append('"');
      }
      default -> throw new IllegalStateException("unhandled column type " + c.type());
    }
  }

  static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"') {
        out.append('"');
      }
      out.append(ch);
    }
    out.append('"');
  }
}
