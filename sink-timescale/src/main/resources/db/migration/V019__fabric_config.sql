-- Lossless-fabric configuration of the RoCE ports (fleet.fabric.config.v1, compacted, keyed
-- node/device/port): a history hypertable (every record: what changed on a port, and when) and a
-- current table (one row per port, the newest record wins). Low volume: a record per port at agent
-- start and on change; 30 day chunks.

CREATE TABLE IF NOT EXISTS port_config_history (
  ts            timestamptz NOT NULL,
  cluster       text        NOT NULL,
  node          text        NOT NULL,
  agent_seq     bigint      NOT NULL,
  source        text,
  device        text        NOT NULL,
  port          integer     NOT NULL,
  netdev        text,
  rail          integer,
  link_layer    text,
  mtu_bytes     integer,
  trust         text,
  pfc_prios     jsonb,
  ecn_np_prios  jsonb,
  ecn_rp_prios  jsonb,
  cnp_dscp      integer,
  dcqcn         jsonb       NOT NULL DEFAULT '{}',
  CONSTRAINT port_config_history_natural_key UNIQUE (node, device, port, ts)
);
SELECT create_hypertable('port_config_history', by_range('ts', INTERVAL '30 days'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS port_config_current (LIKE port_config_history INCLUDING DEFAULTS);
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'port_config_current_pkey') THEN
    ALTER TABLE port_config_current ADD CONSTRAINT port_config_current_pkey PRIMARY KEY (node, device, port);
  END IF;
END
$$;
CREATE INDEX IF NOT EXISTS port_config_current_rail ON port_config_current (cluster, rail);
