-- GpuSample.energy_mj: the GPU's cumulative energy counter, mJ since the driver was loaded
-- (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, field 156; null where the agent's source gives none). A whole
-- number already, so it is stored as it comes (bigint compresses a monotonic counter to a few bits per
-- sample, like the other counters of gpu_raw); the interval's mean power is delta energy / delta ts.
-- Nullable without a default: added to gpu_raw's existing (and compressed) chunks without a rewrite.
ALTER TABLE gpu_raw ADD COLUMN IF NOT EXISTS energy_mj bigint;

-- The gpu view (V012) with the new column last (CREATE OR REPLACE VIEW may only add columns at the end).
CREATE OR REPLACE VIEW gpu AS
SELECT ts, cluster, node, agent_seq, source, gpu, uuid, model, pci_bus_id, temp_c, mem_temp_c,
       power_mw / 1000.0::double precision AS power_w, power_limit_w, sm_clock_mhz, mem_clock_mhz, util_pct,
       mem_util_pct, mem_used_mib, mem_total_mib, throttle_reasons, ecc_sbe_total, ecc_dbe_total,
       retired_pages_sbe, retired_pages_dbe, row_remap_pending, row_remap_failure, remapped_rows_correctable,
       remapped_rows_uncorrectable, nvlink_tx_kib * 1024 + nvlink_tx_rem AS nvlink_tx_bytes,
       nvlink_rx_kib * 1024 + nvlink_rx_rem AS nvlink_rx_bytes, pcie_replay_total, energy_mj
  FROM gpu_raw;
