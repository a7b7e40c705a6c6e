-- Topology and job ownership. Each compacted topic has a "current" table (one row per key, the
-- newest record wins, a tombstone deletes) and a history hypertable (every record, so SREs can
-- ask what changed on a node). Both are low volume (a record per node on start and on change):
-- 30 day chunks.

CREATE TABLE IF NOT EXISTS inventory_history (
  ts                       timestamptz NOT NULL,
  cluster                  text        NOT NULL,
  kind                     text        NOT NULL,
  id                       text        NOT NULL,
  agent_seq                bigint,
  rack                     text,
  "row"                    text,
  gpus                     jsonb       NOT NULL DEFAULT '[]',
  hcas                     jsonb       NOT NULL DEFAULT '[]',
  pdu_outlets              jsonb       NOT NULL DEFAULT '[]',
  cdu                      text,
  cdu_loop                 text,
  rack_cooling             text,
  rack_cooling_capacity_kw double precision,
  racks                    jsonb       NOT NULL DEFAULT '[]',
  attributes               jsonb       NOT NULL DEFAULT '{}',
  CONSTRAINT inventory_history_natural_key UNIQUE (kind, id, ts)
);
SELECT create_hypertable('inventory_history', by_range('ts', INTERVAL '30 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS inventory_history_id_ts ON inventory_history (id, ts DESC);

CREATE TABLE IF NOT EXISTS inventory_current (LIKE inventory_history INCLUDING DEFAULTS);
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'inventory_current_pkey') THEN
    ALTER TABLE inventory_current ADD CONSTRAINT inventory_current_pkey PRIMARY KEY (kind, id);
  END IF;
END
$$;
CREATE INDEX IF NOT EXISTS inventory_current_rack ON inventory_current (rack);
CREATE INDEX IF NOT EXISTS inventory_current_id ON inventory_current (id);

CREATE TABLE IF NOT EXISTS jobs_history (
  ts          timestamptz NOT NULL,
  cluster     text        NOT NULL,
  node        text        NOT NULL,
  agent_seq   bigint      NOT NULL,
  source      text,
  allocations jsonb       NOT NULL DEFAULT '[]',
  CONSTRAINT jobs_history_natural_key UNIQUE (node, ts)
);
SELECT create_hypertable('jobs_history', by_range('ts', INTERVAL '30 days'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS jobs_current (LIKE jobs_history INCLUDING DEFAULTS);
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'jobs_current_pkey') THEN
    ALTER TABLE jobs_current ADD CONSTRAINT jobs_current_pkey PRIMARY KEY (node);
  END IF;
END
$$;
