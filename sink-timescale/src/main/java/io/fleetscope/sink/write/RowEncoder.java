package io.fleetscope.sink.write;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Encodes Avro records for PostgreSQL COPY, as CSV lines or as COPY BINARY tuples, for a list of
 * columns: column names are the Avro field names; epoch-millisecond longs go into timestamptz
 * columns, maps/arrays/records into jsonb, bytes into bytea. CSV: NULL is the unquoted empty
 * field; every text value is quoted. Binary: each field is its length and PostgreSQL's binary
 * form (NULL is length -1), which the server stores without parsing text.
 */
public final class RowEncoder {
  private static final HexFormat HEX = HexFormat.of();
  /** 2000-01-01T00:00:00Z, PostgreSQL's timestamp epoch, in Unix epoch milliseconds. */
  static final long PG_EPOCH_MS = 946_684_800_000L;
  /** COPY BINARY header: signature, flags, header extension length. */
  static final byte[] BINARY_HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};
  /** COPY BINARY trailer: a field count of -1. */
  static final byte[] BINARY_TRAILER = {(byte) 0xff, (byte) 0xff};
  private final List<Column> columns;
  private final int[] positions;
  /** Per column, the conversion of its field's value, or null (stored as is). */
  private final StoredColumn.Conversion[] conversions;

  /**
   * @throws IllegalArgumentException if the schema has a field no column stores, or a column
   *     has no field (so that no field is ever dropped silently)
   */
  public RowEncoder(Schema schema, List<Column> columns, String table) {
    this(schema, columns, table, Map.of());
  }

  /**
   * As {@link #RowEncoder(Schema, List, String)} for a table some of whose columns hold a field
   * converted ({@link StoredColumn}), by column name.
   */
  public RowEncoder(Schema schema, List<Column> columns, String table, Map<String, StoredColumn> converted) {
    this.columns = List.copyOf(columns);
    this.positions = new int[columns.size()];
    this.conversions = new StoredColumn.Conversion[columns.size()];
    Set<String> stored = new HashSet<>();
    for (int i = 0; i < columns.size(); i++) {
      StoredColumn sc = converted.get(columns.get(i).name());
      String field = sc == null ? columns.get(i).name() : sc.field();
      Schema.Field f = schema.getField(field);
      if (f == null) {
        throw new IllegalArgumentException("table " + table + " column " + columns.get(i).name()
            + " has no field in schema " + schema.getFullName());
      }
      positions[i] = f.pos();
      conversions[i] = sc == null ? null : sc.conversion();
      stored.add(field);
    }
    for (Schema.Field f : schema.getFields()) {
      if (!stored.contains(f.name())) {
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
      appendValue(columns.get(i), value(i, r), out);
    }
    out.append('\n');
  }

  /** Whether every column can be sent in COPY's binary format ({@link Column#binaryCopyable}). */
  public boolean binaryCopyable() {
    return columns.stream().allMatch(Column::binaryCopyable);
  }

  /**
   * Appends one COPY BINARY tuple for the record (only when {@link #binaryCopyable()}).
   *
   * @throws IllegalArgumentException for a value the column's type cannot hold (e.g. a long
   *     beyond an integer column), which the CSV form would have had the server refuse
   */
  public void encodeBinary(IndexedRecord r, CopyBuffer out) {
    out.putShort(positions.length);
    for (int i = 0; i < positions.length; i++) {
      putBinary(columns.get(i), value(i, r), out);
    }
  }

  /** Column i's value of the record: its field's value, converted where the column stores it converted. */
  private Object value(int i, IndexedRecord r) {
    Object v = r.get(positions[i]);
    return conversions[i] == null ? v : conversions[i].apply(columns.get(i).name(), v);
  }

  static void putBinary(Column c, Object v, CopyBuffer out) {
    if (v == null) {
      out.putInt(-1);
      return;
    }
    switch (c.type()) {
      case TIMESTAMPTZ -> {
        long ms = ((Number) v).longValue();
        out.putInt(8);
        out.putLong(Math.multiplyExact(Math.subtractExact(ms, PG_EPOCH_MS), 1000L));
      }
      case BIGINT -> {
        out.putInt(8);
        out.putLong(((Number) v).longValue());
      }
      case INTEGER -> {
        long l = ((Number) v).longValue();
        if (l != (int) l) {
          throw new IllegalArgumentException("value " + l + " out of range for integer column " + c.name());
        }
        out.putInt(4);
        out.putInt((int) l);
      }
      case DOUBLE -> {
        out.putInt(8);
        out.putLong(Double.doubleToRawLongBits(((Number) v).doubleValue()));
      }
      case BOOLEAN -> {
        out.putInt(1);
        out.putByte(((Boolean) v) ? 1 : 0);
      }
      case TEXT -> out.putTextField(v instanceof CharSequence cs ? cs : v.toString());
      case JSONB -> {
        byte[] json = AvroJson.toJson(v).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.putInt(json.length + 1);
        out.putByte(1); // jsonb binary format version
        out.put(json);
      }
      case BYTEA -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        out.putInt(b.remaining());
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        out.put(bytes);
      }
      default -> throw new IllegalStateException("unhandled column type " + c.type());
    }
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
