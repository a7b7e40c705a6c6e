package io.fleetscope.sink.write;

import java.util.List;
import java.util.Map;

/**
 * Where one topic is stored.
 *
 * @param topic the Kafka topic
 * @param table the append-only (history) relation that readers query, its columns the Avro field names;
 *     every record is one row, idempotent by its natural key
 * @param currentTable for compacted topics, the one-row-per-key table (newest record wins), else null
 * @param currentKey the primary key columns of {@code currentTable}
 * @param tombstoneColumn the column of {@code currentTable} that holds the Kafka record key (a tombstone deletes by it)
 * @param rollupSource the name under which written time ranges are logged for rollup refresh, else null
 * @param keyField the value field that is the Kafka record key (node, device, fingerprint, ...), for export
 * @param retention retention class of {@code table}
 * @param stored where the rows are written when that is not {@code table} itself (a hypertable whose
 *     columns hold some fields in another unit, behind a view named {@code table}), else null
 */
public record TableSpec(String topic, String table, String currentTable, List<String> currentKey,
                        String tombstoneColumn, String rollupSource, String keyField, Retention retention,
                        StoredForm stored) {

  /** Which retention window applies to a table. */
  public enum Retention { RAW, EVENTS, KEPT }

  /** A topic stored in {@code table} itself, one column per Avro field. */
  public TableSpec(String topic, String table, String currentTable, List<String> currentKey,
      String tombstoneColumn, String rollupSource, String keyField, Retention retention) {
    this(topic, table, currentTable, currentKey, tombstoneColumn, rollupSource, keyField, retention, null);
  }

  public boolean hasCurrent() {
    return currentTable != null;
  }

  /** The hypertable the sink writes (and retention and compression act on). */
  public String writeTable() {
    return stored == null ? table : stored.table();
  }

  /** Columns of {@link #writeTable()} that hold a field converted, by column name (empty: none). */
  public Map<String, StoredColumn> converted() {
    return stored == null ? Map.of() : stored.columns();
  }

  /**
   * The storage form of a topic whose readers see a view: the hypertable and its converted columns.
   *
   * @param table the hypertable
   * @param columns its columns that hold a field in another form, by column name; every other column is
   *     the Avro field of the same name
   */
  public record StoredForm(String table, Map<String, StoredColumn> columns) {
    public StoredForm {
      columns = Map.copyOf(columns);
    }
  }
}
