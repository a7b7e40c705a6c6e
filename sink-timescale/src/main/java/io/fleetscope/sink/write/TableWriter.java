package io.fleetscope.sink.write;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Writes batches of one topic on one connection, inside the caller's transaction. Staging path:
 * COPY into a temporary staging table, then {@code INSERT ... SELECT ... ON CONFLICT DO NOTHING}
 * into the hypertable (and, for compacted topics, an upsert of the newest record per key into the
 * current table). Direct path (direct-first mode, append-only tables): COPY straight into the
 * table under a savepoint; a batch with an already stored row fails there with a unique
 * violation, is rolled back to the savepoint and goes the staging path, so both paths store each
 * natural key once. Logs the written time range for the rollups of gpu and rail_bw. Rows go in
 * COPY's binary format when every column's type allows it (else, or with the CSV format chosen, as
 * CSV).
 *
 * <p>Not thread-safe: one instance per connection.
 */
public final class TableWriter {
  private final TableSpec spec;
  private final RowEncoder encoder;
  private final String staging;
  private final String copySql;
  private final String directCopySql;
  private final String insertSql;
  private final String currentSql;
  private final String tombstoneSql;
  private final int tsPosition;
  private final int nodePosition;
  private final boolean binary;
  private final WritePaths paths;
  /** Reused for encoding one row and for the COPY data stream. */
  private final CopyBuffer row = new CopyBuffer(512);
  private final CopyBuffer chunk = new CopyBuffer(CHUNK_BYTES + 1024);
  private static final int CHUNK_BYTES = 64 * 1024;
  /**
   * Direct-first: whether the next batch tries the direct COPY. Cleared by a fallback; set again
   * once a staging batch finds none of its rows stored (so a replay of stored rows pays for one
   * aborted COPY, not one per batch).
   */
  private boolean tryDirect = true;

  private TableWriter(TableSpec spec, Schema schema, List<Column> columns, CopyFormat format, WritePaths paths) {
    this.spec = spec;
    this.paths = paths;
    this.encoder = new RowEncoder(schema, columns, spec.writeTable(), spec.converted());
    this.binary = format == CopyFormat.BINARY && encoder.binaryCopyable();
    this.staging = "stg_" + spec.writeTable();
    String cols = columns.stream().map(Column::sql).collect(Collectors.joining(", "));
    String with = binary ? " FROM STDIN WITH (FORMAT binary)" : " FROM STDIN WITH (FORMAT csv)";
    this.copySql = "COPY " + staging + " (" + cols + ")" + with;
    this.directCopySql = "COPY " + spec.writeTable() + " (" + cols + ")" + with;
    this.insertSql = "INSERT INTO " + spec.writeTable() + " (" + cols + ") SELECT " + cols + " FROM " + staging
        + " ON CONFLICT DO NOTHING";
    if (spec.hasCurrent()) {
      String key = String.join(", ", spec.currentKey());
      String updates = columns.stream().filter(c -> !spec.currentKey().contains(c.name()))
          .map(c -> c.sql() + " = EXCLUDED." + c.sql()).collect(Collectors.joining(", "));
      this.currentSql = "INSERT INTO " + spec.currentTable() + " AS cur (" + cols + ") SELECT DISTINCT ON (" + key + ") "
          + cols + " FROM " + staging + " ORDER BY " + key + ", ts DESC ON CONFLICT (" + key + ") DO UPDATE SET "
          + updates + " WHERE cur.ts <= EXCLUDED.ts";
      this.tombstoneSql = "DELETE FROM " + spec.currentTable() + " WHERE " + spec.tombstoneColumn() + " = ?";
    } else {
      this.currentSql = null;
      this.tombstoneSql = null;
    }
    Schema.Field ts = schema.getField("ts");
    this.tsPosition = ts == null ? -1 : ts.pos();
    Schema.Field nodeField = spec.rollupSource() != null && "node".equals(spec.keyField()) ? schema.getField("node") : null;
    this.nodePosition = nodeField == null ? -1 : nodeField.pos();
  }

  /** Reads the table's columns from the database and checks them against the topic's schema. */
  public static TableWriter create(Connection c, TableSpec spec, Schema schema) throws SQLException {
    return create(c, spec, schema, CopyFormat.BINARY, new WritePaths());
  }

  /**
   * As {@link #create(Connection, TableSpec, Schema)} with the COPY format to use (binary falls
   * back to CSV for a table with a column type it does not cover), counting the paths taken.
   */
  public static TableWriter create(Connection c, TableSpec spec, Schema schema, CopyFormat format, WritePaths paths)
      throws SQLException {
    List<Column> columns = columns(c, spec.writeTable());
    if (columns.isEmpty()) {
      throw new SQLException("table " + spec.writeTable() + " does not exist: were the migrations applied?", "42P01");
    }
    TableWriter w = new TableWriter(spec, schema, columns, format, paths);
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TEMP TABLE IF NOT EXISTS " + w.staging + " (LIKE " + spec.writeTable() + " INCLUDING DEFAULTS)");
    }
    return w;
  }

  public static List<Column> columns(Connection c, String table) throws SQLException {
    List<Column> out = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
        + "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position")) {
      p.setString(1, table);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(new Column(rs.getString(1), ColumnType.of(rs.getString(2)), rs.getString(2)));
        }
      }
    }
    return out;
  }

  public TableSpec spec() {
    return spec;
  }

  public RowEncoder encoder() {
    return encoder;
  }

  /** Whether this writer sends COPY's binary format (else CSV). */
  public boolean binary() {
    return binary;
  }

  /**
   * Encodes one record as this writer's COPY data (a binary tuple or a CSV line); an exception
   * here means this record cannot be stored.
   */
  public byte[] encode(IndexedRecord r) {
    if (binary) {
      row.reset();
      encoder.encodeBinary(r, row);
      return row.toByteArray();
    }
    StringBuilder sb = new StringBuilder(256);
    encoder.encode(r, sb);
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes encoded rows ({@link #encode}) with their event times; returns the rows new to the table.
   * Runs in the caller's transaction. With {@code directFirst} (append-only tables only) the rows
   * are first COPYed straight into the table under a savepoint; if any of them is already there
   * (unique violation) or refused, that COPY is rolled back and the staging path runs. After such
   * a fallback the following batches go the staging path until one of them finds all its rows new.
   */
  public int write(Connection c, List<byte[]> lines, List<Invalidation> ranges, boolean directFirst) throws SQLException {
    if (lines.isEmpty()) {
      return 0;
    }
    int inserted = -1;
    boolean direct = directFirst && currentSql == null;
    if (direct && tryDirect) {
      java.sql.Savepoint sp = c.setSavepoint();
      try {
        inserted = (int) copy(c, directCopySql, lines);
        c.releaseSavepoint(sp);
        paths.direct.incrementAndGet();
      } catch (SQLException e) {
        if (!SqlErrors.isDataError(e)) {
          throw e;
        }
        c.rollback(sp);
        paths.fallbacks.incrementAndGet();
        tryDirect = false;
        inserted = -1;
      }
    }
    if (inserted < 0) {
      try (Statement s = c.createStatement()) {
        s.execute("TRUNCATE " + staging);
      }
      copy(c, copySql, lines);
      try (Statement s = c.createStatement()) {
        inserted = s.executeUpdate(insertSql);
        if (currentSql != null) {
          s.executeUpdate(currentSql);
        }
      }
      paths.staging.incrementAndGet();
      if (direct) {
        tryDirect = inserted == lines.size();
      }
    }
    if (inserted > 0 && spec.rollupSource() != null && !ranges.isEmpty()) {
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO rollup_invalidations (source, from_ts, to_ts, node) VALUES (?, ?, ?, ?)")) {
        for (Invalidation r : ranges) {
          p.setString(1, spec.rollupSource());
          p.setTimestamp(2, new Timestamp(r.fromMs()));
          p.setTimestamp(3, new Timestamp(r.toMs()));
          p.setString(4, r.node());
          p.addBatch();
        }
        p.executeBatch();
      }
    }
    return inserted;
  }

  /** One COPY of the rows, sent in chunks of about 64 KiB (with the binary header and trailer). */
  private long copy(Connection c, String sql, List<byte[]> rows) throws SQLException {
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    CopyIn in = copy.copyIn(sql);
    try {
      chunk.reset();
      if (binary) {
        chunk.put(RowEncoder.BINARY_HEADER);
      }
      for (byte[] r : rows) {
        chunk.put(r);
        if (chunk.size() >= CHUNK_BYTES) {
          in.writeToCopy(chunk.array(), 0, chunk.size());
          chunk.reset();
        }
      }
      if (binary) {
        chunk.put(RowEncoder.BINARY_TRAILER);
      }
      if (chunk.size() > 0) {
        in.writeToCopy(chunk.array(), 0, chunk.size());
      }
      return in.endCopy();
    } finally {
      chunk.reset();
      if (in.isActive()) {
        in.cancelCopy();
      }
    }
  }

  /** A tombstone on a compacted topic: the key is gone from the current table (history is kept). */
  public int delete(Connection c, String key) throws SQLException {
    if (tombstoneSql == null) {
      throw new IllegalStateException("topic " + spec.topic() + " has no current table");
    }
    try (PreparedStatement p = c.prepareStatement(tombstoneSql)) {
      p.setString(1, key);
      return p.executeUpdate();
    }
  }

  /** The node of a row of a table whose rollups can be refreshed per node (keyed by node), else null. */
  public String rollupNode(IndexedRecord r) {
    if (nodePosition < 0) {
      return null;
    }
    Object v = r.get(nodePosition);
    return v == null ? null : v.toString();
  }

  public long eventTime(IndexedRecord r) {
    return tsPosition < 0 ? 0L : ((Number) r.get(tsPosition)).longValue();
  }
}
