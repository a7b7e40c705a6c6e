package io.fleetscope.sink.write;

import io.fleetscope.schemas.Topics;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a batch of records of many topics on one connection, inside the caller's transaction.
 * A record that cannot be encoded or that the database refuses as bad data (SQLSTATE class 22 or
 * 23) becomes a {@link Reject}; the rest of the batch is still written (a failing COPY is split in
 * halves under savepoints until the bad rows are isolated). Any other error is thrown, so the
 * caller can roll back and retry the whole batch.
 */
public final class BatchWriter {
  private final Map<String, TableWriter> writers = new HashMap<>();
  private final boolean directFirst;
  private final CopyFormat format;
  private final WritePaths paths;

  /** The staging path only (COPY into staging, INSERT ... ON CONFLICT DO NOTHING), binary COPY. */
  public BatchWriter() {
    this(false, CopyFormat.BINARY, new WritePaths());
  }

  /** As {@link #BatchWriter(boolean, CopyFormat, WritePaths)} with binary COPY. */
  public BatchWriter(boolean directFirst, WritePaths paths) {
    this(directFirst, CopyFormat.BINARY, paths);
  }

  /**
   * @param directFirst try a plain COPY into append-only tables first (see {@link TableWriter#write})
   * @param format the COPY format (binary falls back to CSV for tables with a type it does not cover)
   * @param paths counts which path each batch took
   */
  public BatchWriter(boolean directFirst, CopyFormat format, WritePaths paths) {
    this.directFirst = directFirst;
    this.format = format;
    this.paths = paths;
  }

  /** The outcome of one batch. */
  public record Result(int rows, int inserted, List<Reject> rejects) {}

  /** Writes; the returned counts are per batch. */
  public Result write(Connection c, List<SinkRecord> batch) throws SQLException {
    // the tables in one fixed order, whatever order the poll returned the topics in (Tables.WRITE_ORDER)
    Map<String, List<SinkRecord>> byTopic = new TreeMap<>(Tables.WRITE_ORDER);
    for (SinkRecord r : batch) {
      byTopic.computeIfAbsent(r.topic(), t -> new ArrayList<>()).add(r);
    }
    List<Reject> rejects = new ArrayList<>();
    int rows = 0;
    int inserted = 0;
    for (Map.Entry<String, List<SinkRecord>> e : byTopic.entrySet()) {
      TableWriter w = writer(c, e.getKey());
      List<Encoded> run = new ArrayList<>();
      for (SinkRecord r : e.getValue()) {
        if (r.value() == null) {
          inserted += writeRun(c, w, run, rejects);
          rows += run.size();
          run.clear();
          w.delete(c, r.key());
          continue;
        }
        try {
          run.add(new Encoded(r, w.encode(r.value()), w.eventTime(r.value()), w.rollupNode(r.value())));
        } catch (RuntimeException ex) {
          rejects.add(new Reject(r, "cannot encode for table " + w.spec().table() + ": " + ex, ex.getClass().getName()));
        }
      }
      inserted += writeRun(c, w, run, rejects);
      rows += run.size();
    }
    return new Result(rows, inserted, rejects);
  }

  /** Forgets per-connection state (staging tables) after the connection is replaced. */
  public void reset() {
    writers.clear();
  }

  private TableWriter writer(Connection c, String topic) throws SQLException {
    TableWriter w = writers.get(topic);
    if (w == null) {
      w = TableWriter.create(c, Tables.forTopic(topic), Topics.require(topic).schema(), format, paths);
      writers.put(topic, w);
    }
    return w;
  }

  private record Encoded(SinkRecord record, byte[] line, long ts, String node) {}

  private int writeRun(Connection c, TableWriter w, List<Encoded> run, List<Reject> rejects) throws SQLException {
    if (run.isEmpty()) {
      return 0;
    }
    Savepoint sp = c.setSavepoint();
    try {
      int n = writeAll(c, w, run);
      c.releaseSavepoint(sp);
      return n;
    } catch (SQLException e) {
      if (!SqlErrors.isDataError(e)) {
        throw e;
      }
      c.rollback(sp);
      if (run.size() == 1) {
        rejects.add(new Reject(run.get(0).record(), "refused by table " + w.spec().table() + ": "
            + firstLine(e.getMessage()), e.getClass().getName() + "/" + e.getSQLState()));
        return 0;
      }
      int mid = run.size() / 2;
      return writeRun(c, w, run.subList(0, mid), rejects) + writeRun(c, w, run.subList(mid, run.size()), rejects);
    }
  }

  private int writeAll(Connection c, TableWriter w, List<Encoded> run) throws SQLException {
    List<byte[]> lines = new ArrayList<>(run.size());
    long[] ts = new long[run.size()];
    String[] nodes = new String[run.size()];
    for (int i = 0; i < run.size(); i++) {
      Encoded e = run.get(i);
      lines.add(e.line());
      ts[i] = e.ts();
      nodes[i] = e.node();
    }
    return w.write(c, lines, Invalidation.of(ts, nodes), directFirst);
  }

  static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse(s);
  }
}
