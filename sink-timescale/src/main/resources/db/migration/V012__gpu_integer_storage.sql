-- GPU samples stored in integers where the devices report whole units of something, read through a
-- view that keeps the old name, columns, types and units. Both editions.
--
-- Why: compressed, the doubles and byte counts of gpu took 30 bytes per sample, 80 % of it in three
-- columns (BENCHMARKS.md, TimescaleDB storage). TimescaleDB compresses a float with Gorilla (XOR of
-- consecutive values): a two-decimal wattage is no exact binary fraction, so nearly every mantissa
-- bit changes and a value costs ~57 bits. Integers get delta-of-delta + simple8b: the bits of the
-- change of the change, here 12-21 bits.
--   power_w          -> power_mw integer: NVML reports milliwatts (nvmlDeviceGetPowerUsage), DCGM
--                       a double with 3 decimals, nvidia-smi 2 decimals; all exact in milliwatts.
--   nvlink_*_bytes   -> nvlink_*_kib bigint + nvlink_*_rem integer: NVML's NVLink throughput
--                       counters (NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX) and nvidia-smi
--                       `nvlink -gt d` count KiB; the remainder keeps a byte-exact source exact (it
--                       is 0 from those sources and compresses to nothing).
-- The sink writes gpu_raw (Tables.GPU_STORED converts); everything else reads the view gpu.
-- Existing rows are copied over once (rows stored before: power rounded to the milliwatt).

ALTER TABLE gpu RENAME TO gpu_v002;

CREATE TABLE IF NOT EXISTS gpu_raw (
  ts                          timestamptz      NOT NULL,
  cluster                     text             NOT NULL,
  node                        text             NOT NULL,
  agent_seq                   bigint           NOT NULL,
  source                      text,
  gpu                         integer          NOT NULL,
  uuid                        text,
  model                       text,
  pci_bus_id                  text,
  temp_c                      double precision,
  mem_temp_c                  double precision,
  power_mw                    integer,
  power_limit_w               double precision,
  sm_clock_mhz                double precision,
  mem_clock_mhz               double precision,
  util_pct                    double precision,
  mem_util_pct                double precision,
  mem_used_mib                double precision,
  mem_total_mib               double precision,
  throttle_reasons            bigint,
  ecc_sbe_total               bigint,
  ecc_dbe_total               bigint,
  retired_pages_sbe           bigint,
  retired_pages_dbe           bigint,
  row_remap_pending           boolean,
  row_remap_failure           boolean,
  remapped_rows_correctable   bigint,
  remapped_rows_uncorrectable bigint,
  nvlink_tx_kib               bigint,
  nvlink_tx_rem               integer,
  nvlink_rx_kib               bigint,
  nvlink_rx_rem               integer,
  pcie_replay_total           bigint,
  CONSTRAINT gpu_raw_natural_key UNIQUE (node, gpu, ts),
  -- impossible values are refused (the sink sends such a record to fleet.dlq.v1 with this name)
  CONSTRAINT gpu_index_valid CHECK (gpu >= 0 AND gpu < 256),
  CONSTRAINT gpu_temp_plausible CHECK (temp_c IS NULL OR temp_c BETWEEN -40 AND 200),
  CONSTRAINT gpu_nvlink_rem_valid CHECK (nvlink_tx_rem BETWEEN 0 AND 1023 AND nvlink_rx_rem BETWEEN 0 AND 1023)
);
SELECT create_hypertable('gpu_raw', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);

INSERT INTO gpu_raw
SELECT ts, cluster, node, agent_seq, source, gpu, uuid, model, pci_bus_id, temp_c, mem_temp_c,
       round(power_w * 1000)::integer, power_limit_w, sm_clock_mhz, mem_clock_mhz, util_pct, mem_util_pct,
       mem_used_mib, mem_total_mib, throttle_reasons, ecc_sbe_total, ecc_dbe_total, retired_pages_sbe,
       retired_pages_dbe, row_remap_pending, row_remap_failure, remapped_rows_correctable,
       remapped_rows_uncorrectable, div(nvlink_tx_bytes, 1024)::bigint, mod(nvlink_tx_bytes, 1024)::integer,
       div(nvlink_rx_bytes, 1024)::bigint, mod(nvlink_rx_bytes, 1024)::integer, pcie_replay_total
  FROM gpu_v002;

-- The old relation's name, columns, types and units (the console, named queries, Grafana, export).
CREATE OR REPLACE VIEW gpu AS
SELECT ts, cluster, node, agent_seq, source, gpu, uuid, model, pci_bus_id, temp_c, mem_temp_c,
       power_mw / 1000.0::double precision AS power_w, power_limit_w, sm_clock_mhz, mem_clock_mhz, util_pct,
       mem_util_pct, mem_used_mib, mem_total_mib, throttle_reasons, ecc_sbe_total, ecc_dbe_total,
       retired_pages_sbe, retired_pages_dbe, row_remap_pending, row_remap_failure, remapped_rows_correctable,
       remapped_rows_uncorrectable, nvlink_tx_kib * 1024 + nvlink_tx_rem AS nvlink_tx_bytes,
       nvlink_rx_kib * 1024 + nvlink_rx_rem AS nvlink_rx_bytes, pcie_replay_total
  FROM gpu_raw;

-- Views that read gpu bound to the old table by its identity: re-bind them to the view (same text as V006).
CREATE OR REPLACE VIEW v_gpu_history AS
SELECT ts, cluster, node, gpu, uuid, model, temp_c, mem_temp_c, power_w, power_limit_w, sm_clock_mhz,
       mem_clock_mhz, util_pct, throttle_reasons, ecc_sbe_total, ecc_dbe_total, retired_pages_sbe,
       retired_pages_dbe, row_remap_pending, row_remap_failure, pcie_replay_total
  FROM gpu;

DROP TABLE gpu_v002;
