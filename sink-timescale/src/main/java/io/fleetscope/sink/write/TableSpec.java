package io.fleetscope.sink.write;

import java.util.List;

/**
 * Where one topic is stored.
 *
 * @param topic the Kafka topic
 * @param table the append-only (history) hypertable; every record is one row, idempotent by its natural key
 * @param currentTable for compacted topics, the one-row-per-key table (newest record wins), else null
 * @param currentKey the primary key columns of {@code currentTable}
 * @param tombstoneColumn the column of {@code currentTable} that holds the Kafka record key (a tombstone deletes by it)
 * @param rollupSource the name under which written time ranges are logged for rollup refresh, else null
 * @param keyField the value field that is the Kafka record key (node, device, fingerprint, ...), for export
 * @param retention retention class of {@code table}
 */
public record TableSpec(String topic, String table, String currentTable, List<String> currentKey,
                        String tombstoneColumn, String rollupSource, String keyField, Retention retention) {

  /** Which retention window applies to a table. */
  public enum Retention { RAW, EVENTS, KEPT }

  public boolean hasCurrent() {
    return currentTable != null;
  }
}
