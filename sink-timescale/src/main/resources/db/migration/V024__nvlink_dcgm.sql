-- fleet.nvlink.v1 from dcgm-exporter: DCGM's profiling rates (bytes per second, averaged by DCGM; not
-- counters) and a GPU's all-links total as link -1 (sent only with what no link of that GPU reports).
-- NOT VALID: the rows already stored have link >= 0 and stay unchecked (no scan of compressed chunks).
ALTER TABLE nvlink ADD COLUMN IF NOT EXISTS tx_bytes_per_s double precision;
ALTER TABLE nvlink ADD COLUMN IF NOT EXISTS rx_bytes_per_s double precision;
ALTER TABLE nvlink DROP CONSTRAINT IF EXISTS nvlink_link_valid;
ALTER TABLE nvlink ADD CONSTRAINT nvlink_link_valid CHECK (link >= -1 AND gpu >= 0) NOT VALID;
