package io.fleetscope.sink.write;

import java.io.IOException;
import java.io.StringReader;
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
import org.postgresql.copy.CopyManager;

/**
 * Writes batches of one topic on one connection, inside the caller's transaction: COPY into a
 * temporary staging table, then {@code INSERT ... SELECT ... ON CONFLICT DO NOTHING} into the
 * hypertable (and, for compacted topics, an upsert of the newest record per key into the current
 * table). Logs the written time range for the rollups of gpu and rail_bw.
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

  private TableWriter(TableSpec spec, Schema schema, List<Column> columns) {
    this.spec = spec;
    this.encoder = new RowEncoder(schema, columns, spec.table());
    this.staging = "stg_" + spec.table();
    String cols = columns.stream().map(Column::sql).collect(Collectors.joining(", "));
    this.copySql = "COPY " + staging + " (" + cols + ") FROM STDIN WITH (FORMAT csv)";
    this.directCopySql = "COPY " + spec.table() + " (" + cols + ") FROM STDIN WITH (FORMAT csv)";
    this.insertSql = "INSERT INTO " + spec.table() + " (" + cols + ") SELECT " + cols + " FROM " + staging
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
  }

  /** Reads the table's columns from the database and checks them against the topic's schema. */
  public static TableWriter create(Connection c, TableSpec spec, Schema schema) throws SQLException {
    List<Column> columns = columns(c, spec.table());
    if (columns.isEmpty()) {
      throw new SQLException("table " + spec.table() + " does not exist: were the migrations applied?", "42P01");
    }
    TableWriter w = new TableWriter(spec, schema, columns);
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TEMP TABLE IF NOT EXISTS " + w.staging + " (LIKE " + spec.table() + " INCLUDING DEFAULTS)");
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
          out.add(new Column(rs.getString(1), ColumnType.of(rs.getString(2))));
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

  /** Encodes one record; an exception here means this record cannot be stored. */
  public String encode(IndexedRecord r) {
    StringBuilder sb = new StringBuilder(256);
    encoder.encode(r, sb);
    return sb.toString();
  }

  /**
   * Writes encoded rows (CSV lines) with their event times; returns the rows new to the table.
   * Runs in the caller's transaction. With {@code directFirst} (append-only tables only) the rows
   * are first COPYed straight into the table under a savepoint; if any of them is already there
   * (unique violation) or refused, that COPY is rolled back and the staging path runs.
   */
  public int write(Connection c, List<String> lines, long minTs, long maxTs, boolean directFirst) throws SQLException {
    if (lines.isEmpty()) {
      return 0;
    }
    StringBuilder sb = new StringBuilder(lines.size() * 256);
    for (String l : lines) {
      sb.append(l);
    }
    String csv = sb.toString();
    int inserted = -1;
    if (directFirst && currentSql == null) {
      java.sql.Savepoint sp = c.setSavepoint();
      try {
        inserted = (int) copy(c, directCopySql, csv);
        c.releaseSavepoint(sp);
      } catch (SQLException e) {
        if (!SqlErrors.isDataError(e)) {
          throw e;
        }
        c.rollback(sp);
        inserted = -1;
      }
    }
    if (inserted < 0) {
      try (Statement s = c.createStatement()) {
        s.execute("TRUNCATE " + staging);
      }
      copy(c, copySql, csv);
      try (Statement s = c.createStatement()) {
        inserted = s.executeUpdate(insertSql);
        if (currentSql != null) {
          s.executeUpdate(currentSql);
        }
      }
    }
    if (inserted > 0 && spec.rollupSource() != null) {
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO rollup_invalidations (source, from_ts, to_ts) VALUES (?, ?, ?)")) {
        p.setString(1, spec.rollupSource());
        p.setTimestamp(2, new Timestamp(minTs));
        p.setTimestamp(3, new Timestamp(maxTs));
        p.executeUpdate();
      }
    }
    return inserted;
  }

  private static long copy(Connection c, String sql, String csv) throws SQLException {
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    try {
      return copy.copyIn(sql, new StringReader(csv));
    } catch (IOException e) {
      throw new SQLException("COPY failed: " + e.getMessage(), "08006", e);
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

  public long eventTime(IndexedRecord r) {
    return tsPosition < 0 ? 0L : ((Number) r.get(tsPosition)).longValue();
  }
}
