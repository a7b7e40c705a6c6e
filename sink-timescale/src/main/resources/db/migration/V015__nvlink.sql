-- fleet.nvlink.v1: one row per GPU, NVLink link and sample. Column names are the Avro field names.
-- Volume: an 8-GPU H100/H200 node has 8 x 18 = 144 links; a 10,000-GPU fleet at the agent's
-- NVLink interval (default 10 s) writes ~18,000 rows/s, about the volume of gpu: 1 hour chunks.
CREATE TABLE IF NOT EXISTS nvlink (
  ts               timestamptz NOT NULL,
  cluster          text        NOT NULL,
  node             text        NOT NULL,
  agent_seq        bigint      NOT NULL,
  source           text,
  gpu              integer     NOT NULL,
  uuid             text,
  link             integer     NOT NULL,
  state            text,
  speed_gbps       double precision,
  tx_bytes         bigint,
  rx_bytes         bigint,
  crc_flit_errors  bigint,
  crc_data_errors  bigint,
  crc_errors       bigint,
  replay_errors    bigint,
  recovery_errors  bigint,
  CONSTRAINT nvlink_natural_key UNIQUE (node, gpu, link, ts),
  CONSTRAINT nvlink_link_valid CHECK (link >= 0 AND gpu >= 0)
);
SELECT create_hypertable('nvlink', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS nvlink_cluster_node_ts ON nvlink (cluster, node, ts DESC);
