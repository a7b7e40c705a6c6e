package io.fleetscope.sink.write;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.write.TableSpec.Retention;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The table of every topic (see the migrations in db/migration). */
public final class Tables {
  private Tables() {}

  private static final Map<String, TableSpec> BY_TOPIC;

  /**
   * GPU samples are written to {@code gpu_raw} (V012), read through the view {@code gpu}: power in
   * whole milliwatts and the NVLink byte counters in whole KiB (plus the bytes beyond, 0 from NVML),
   * integers that compress to a few bits per sample where the doubles and byte counts took 55-57.
   */
  static final TableSpec.StoredForm GPU_STORED = new TableSpec.StoredForm("gpu_raw", Map.of(
      "power_mw", new StoredColumn("power_w", StoredColumn.Conversion.THOUSANDTHS),
      "nvlink_tx_kib", new StoredColumn("nvlink_tx_bytes", StoredColumn.Conversion.KIB),
      "nvlink_tx_rem", new StoredColumn("nvlink_tx_bytes", StoredColumn.Conversion.KIB_REMAINDER),
      "nvlink_rx_kib", new StoredColumn("nvlink_rx_bytes", StoredColumn.Conversion.KIB),
      "nvlink_rx_rem", new StoredColumn("nvlink_rx_bytes", StoredColumn.Conversion.KIB_REMAINDER)));

  static {
    Map<String, TableSpec> m = new LinkedHashMap<>();
    m.put(Topics.GPU, new TableSpec(Topics.GPU, "gpu", null, List.of(), null, "gpu", "node", Retention.RAW, GPU_STORED));
    raw(m, Topics.GPU_XID, "gpu_xid", null, "node", Retention.EVENTS);
    raw(m, Topics.NVLINK, "nvlink", null, "node", Retention.RAW);
    raw(m, Topics.IB, "ib", null, "node", Retention.RAW);
    raw(m, Topics.PDU, "pdu", null, "device", Retention.RAW);
    raw(m, Topics.COOLANT, "coolant", null, "device", Retention.RAW);
    raw(m, Topics.CKPT, "ckpt", null, "node", Retention.EVENTS);
    m.put(Topics.INVENTORY, new TableSpec(Topics.INVENTORY, "inventory_history", "inventory_current",
        List.of("kind", "id"), "id", null, "id", Retention.EVENTS));
    m.put(Topics.JOBS, new TableSpec(Topics.JOBS, "jobs_history", "jobs_current",
        List.of("node"), "node", null, "node", Retention.EVENTS));
    // keyed node/device/port: a tombstone deletes by that expression of the key columns
    m.put(Topics.FABRIC_CONFIG, new TableSpec(Topics.FABRIC_CONFIG, "port_config_history", "port_config_current",
        List.of("node", "device", "port"), "node || '/' || device || '/' || port", null, "node", Retention.EVENTS));
    raw(m, Topics.RAIL_BW, "rail_bw", "rail", null, Retention.RAW);
    raw(m, Topics.THERMAL_RISK, "thermal_risk", null, "node", Retention.RAW);
    raw(m, Topics.ECC_TREND, "ecc_trend", null, "node", Retention.RAW);
    raw(m, Topics.CKPT_SLO, "ckpt_slo", null, "job", Retention.EVENTS);
    raw(m, Topics.ANOMALIES, "anomalies", null, "fingerprint", Retention.EVENTS);
    raw(m, Topics.ALERTS, "alerts", null, "fingerprint", Retention.KEPT);
    raw(m, Topics.DLQ, "dead_letters", null, "key", Retention.EVENTS);
    raw(m, Topics.STORAGE, "storage", null, "node", Retention.RAW);
    raw(m, Topics.GPU_MIG, "gpu_mig", null, "node", Retention.RAW);
    BY_TOPIC = Collections.unmodifiableMap(m);
  }

  private static void raw(Map<String, TableSpec> m, String topic, String table, String rollup, String key, Retention r) {
    m.put(topic, new TableSpec(topic, table, null, List.of(), null, rollup, key, r));
  }

  /**
   * The order in which a batch writes its topics' tables: by table name, the dead-letter table
   * last (a batch's rejects are written after everything else). Every worker's transaction then
   * takes its table and chunk-creation locks in the same order, so two workers writing the same
   * tables cannot deadlock on them (they did, SQLSTATE 40P01, with the poll's topic order).
   */
  public static final Comparator<String> WRITE_ORDER = Comparator
      .comparing((String topic) -> Topics.DLQ.equals(topic))
      .thenComparing(topic -> forTopic(topic).writeTable())
      .thenComparing(Comparator.naturalOrder());

  public static Map<String, TableSpec> all() {
    return BY_TOPIC;
  }

  public static TableSpec forTopic(String topic) {
    TableSpec s = BY_TOPIC.get(topic);
    if (s == null) {
      throw new IllegalArgumentException("no table for topic '" + topic + "'; stored topics: " + String.join(", ", BY_TOPIC.keySet()));
    }
    return s;
  }
}
