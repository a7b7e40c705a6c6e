package io.fleetscope.sink;

/**
 * A what-if layout of the {@code nvlink} table for {@link StorageBenchmark} (not the sink's schema): the
 * per-link byte counters stored as whole KiB plus a byte remainder, as {@code gpu_raw} stores the
 * per-GPU totals, and no index beyond the natural key (the sink's {@code (cluster, node, ts)} index
 * makes TimescaleDB keep a bloom filter over (ts, cluster) in every compressed batch). The same rows,
 * copied from {@code nvlink}, compressed with the same settings.
 */
final class NvlinkKibProbe {
  private NvlinkKibProbe() {}

  static final String TABLE = "bench_nvlink_kib";

  static String[] create() {
    return new String[] {
        "CREATE TABLE " + TABLE + " (ts timestamptz NOT NULL, cluster text NOT NULL, node text NOT NULL, "
            + "agent_seq bigint NOT NULL, source text, gpu integer NOT NULL, uuid text, link integer NOT NULL, state text, "
            + "speed_gbps double precision, tx_kib bigint, tx_rem integer, rx_kib bigint, rx_rem integer, "
            + "crc_flit_errors bigint, crc_data_errors bigint, crc_errors bigint, replay_errors bigint, recovery_errors bigint, "
            + "tx_bytes_per_s double precision, rx_bytes_per_s double precision, UNIQUE (node, gpu, link, ts))",
        "SELECT create_hypertable('" + TABLE + "', by_range('ts', INTERVAL '1 hour'))",
        "ALTER TABLE " + TABLE + " SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu, link', "
            + "timescaledb.compress_orderby = 'ts')",
        "INSERT INTO " + TABLE + " SELECT ts, cluster, node, agent_seq, source, gpu, uuid, link, state, speed_gbps, "
            + "div(tx_bytes, 1024), mod(tx_bytes, 1024), div(rx_bytes, 1024), mod(rx_bytes, 1024), crc_flit_errors, "
            + "crc_data_errors, crc_errors, replay_errors, recovery_errors, tx_bytes_per_s, rx_bytes_per_s FROM nvlink",
    };
  }
}
