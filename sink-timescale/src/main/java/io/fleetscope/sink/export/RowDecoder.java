package io.fleetscope.sink.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.sink.write.AvroJson;
import io.fleetscope.sink.write.Column;
import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Rebuilds a topic's Avro record from a table row (the inverse of RowEncoder). */
public final class RowDecoder {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Schema schema;
  private final List<Column> columns;

  public RowDecoder(Schema schema, List<Column> columns) {
    this.schema = schema;
    this.columns = List.copyOf(columns);
  }

  /** The SELECT list for {@link #decode}: the columns in order. */
  public String selectList() {
    StringBuilder sb = new StringBuilder();
    for (Column c : columns) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(c.sql());
    }
    return sb.toString();
  }

  public SpecificRecord decode(ResultSet rs) throws SQLException {
    SpecificRecord r = (SpecificRecord) SpecificData.get().newRecord(null, schema);
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      Schema.Field f = schema.getField(c.name());
      if (f == null) {
        continue;
      }
      r.put(f.pos(), value(c, f.schema(), rs, i + 1));
    }
    return r;
  }

  private static Object value(Column c, Schema fieldSchema, ResultSet rs, int idx) throws SQLException {
    Object v;
    switch (c.type()) {
      case TIMESTAMPTZ -> {
        java.sql.Timestamp t = rs.getTimestamp(idx);
        v = t == null ? null : t.getTime();
      }
      case BIGINT -> {
        long l = rs.getLong(idx);
        v = rs.wasNull() ? null : l;
      }
      case INTEGER -> {
        int n = rs.getInt(idx);
        v = rs.wasNull() ? null : n;
      }
      case DOUBLE -> {
        double d = rs.getDouble(idx);
        v = rs.wasNull() ? null : d;
      }
      case BOOLEAN -> {
        boolean b = rs.getBoolean(idx);
        v = rs.wasNull() ? null : b;
      }
      case TEXT -> v = rs.getString(idx);
      case BYTEA -> {
        byte[] b = rs.getBytes(idx);
        v = b == null ? null : ByteBuffer.wrap(b);
      }
      case JSONB -> {
        String s = rs.getString(idx);
        if (s == null) {
          v = null;
        } else {
          try {
            v = AvroJson.fromNode(fieldSchema, JSON.readTree(s));
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("column " + c.name() + " holds invalid JSON: " + e.getOriginalMessage(), "22032", e);
          }
        }
      }
      default -> throw new IllegalStateException("unhandled column type " + c.type());
    }
    return v;
  }
}
