-- fleet.storage.v1: the storage tiers of every node, one row per sample of a local NVMe controller
-- (tier local-nvme, device nvme0) or of a parallel file system client mount (tier lustre or nfs,
-- device the Lustre instance or the NFS mount point). Column names are the Avro field names;
-- counters are raw and cumulative, as the agent read them.
-- Volume: a few devices and mounts per node every 10-60 s, ~10x less than gpu: 1 day chunks.
CREATE TABLE IF NOT EXISTS storage (
  ts                  timestamptz      NOT NULL,
  cluster             text             NOT NULL,
  node                text             NOT NULL,
  agent_seq           bigint           NOT NULL,
  source              text,
  tier                text             NOT NULL,
  device              text             NOT NULL,
  critical_warning    integer,
  media_errors        bigint,
  percentage_used     integer,
  available_spare_pct integer,
  temp_c              double precision,
  err_log_entries     bigint,
  read_bytes          bigint,
  write_bytes         bigint,
  read_ops            bigint,
  write_ops           bigint,
  read_time_ms        bigint,
  write_time_ms       bigint,
  write_rtt_ms        bigint,
  CONSTRAINT storage_natural_key UNIQUE (node, tier, device, ts)
);
SELECT create_hypertable('storage', by_range('ts', INTERVAL '1 day'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS storage_tier_ts ON storage (cluster, tier, ts DESC);
