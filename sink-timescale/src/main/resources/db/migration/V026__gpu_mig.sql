-- fleet.gpu.mig.v1: one row per MIG device of a GPU in MIG mode and sample, beside the physical
-- GPU's row in gpu_raw (temperature, power, clocks and the GPU's ECC totals stay there). A MIG
-- device is (node, gpu, gpu_instance_id, compute_instance_id); compute_instance_id is null where the
-- source does not name it (dcgm-exporter reports GPU instances), and such rows are still duplicates
-- of each other in the natural key (NULLS NOT DISTINCT). Column names are the Avro field names.
-- Volume: at most 7 MIG devices per GPU, on the GPUs in MIG mode only, at the GPU interval:
-- 1 hour chunks like gpu_raw.
CREATE TABLE IF NOT EXISTS gpu_mig (
  ts                     timestamptz      NOT NULL,
  cluster                text             NOT NULL,
  node                   text             NOT NULL,
  agent_seq              bigint           NOT NULL,
  source                 text,
  gpu                    integer          NOT NULL,
  gpu_uuid               text,
  gpu_instance_id        integer          NOT NULL,
  compute_instance_id    integer,
  mig_device             integer,
  profile                text,
  uuid                   text,
  sm_count               integer,
  mem_used_mib           double precision,
  mem_total_mib          double precision,
  util_pct               double precision,
  ecc_sram_uncorrectable bigint,
  CONSTRAINT gpu_mig_natural_key UNIQUE NULLS NOT DISTINCT (node, gpu, gpu_instance_id, compute_instance_id, ts),
  CONSTRAINT gpu_mig_ids_valid CHECK (gpu >= 0 AND gpu_instance_id >= 0)
);
SELECT create_hypertable('gpu_mig', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS gpu_mig_cluster_node_ts ON gpu_mig (cluster, node, ts DESC);
