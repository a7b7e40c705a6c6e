-- Derived streams from flink-jobs, anomalies, alerts and dead letters.
-- Chunk intervals:
--   thermal_risk, ecc_trend: per GPU every few seconds to a minute: up to gpu volume: 1 hour.
--   rail_bw: one row per (cluster, rail) per 10 s window: tiny: 7 days.
--   ckpt_slo: one row per checkpoint: 30 days.
--   anomalies: state changes only: 7 days.
--   dead_letters: rare unless something is broken; 1 day keeps a burst's chunks droppable.
-- alerts is a plain table: it is kept forever (no retention) and is small.

CREATE TABLE IF NOT EXISTS rail_bw (
  ts             timestamptz      NOT NULL,
  window_start   timestamptz      NOT NULL,
  window_end     timestamptz      NOT NULL,
  cluster        text             NOT NULL,
  rail           integer          NOT NULL,
  tx_gbps        double precision NOT NULL,
  rx_gbps        double precision NOT NULL,
  line_rate_gbps double precision NOT NULL,
  utilisation    double precision NOT NULL,
  ports_up       integer          NOT NULL,
  ports_total    integer          NOT NULL,
  imbalance      double precision,
  degraded_ports jsonb            NOT NULL DEFAULT '[]',
  CONSTRAINT rail_bw_natural_key UNIQUE (cluster, rail, ts)
);
SELECT create_hypertable('rail_bw', by_range('ts', INTERVAL '7 days'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS thermal_risk (
  ts                  timestamptz      NOT NULL,
  cluster             text             NOT NULL,
  node                text             NOT NULL,
  gpu                 integer          NOT NULL,
  rack                text,
  model               text,
  score               double precision NOT NULL,
  level               text             NOT NULL,
  seconds_to_throttle double precision,
  driver              text             NOT NULL,
  temp_c              double precision,
  headroom_c          double precision,
  slope_c_per_min     double precision,
  mem_temp_c          double precision,
  power_ratio         double precision,
  CONSTRAINT thermal_risk_natural_key UNIQUE (node, gpu, ts)
);
SELECT create_hypertable('thermal_risk', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS ecc_trend (
  ts                timestamptz      NOT NULL,
  cluster           text             NOT NULL,
  node              text             NOT NULL,
  gpu               integer          NOT NULL,
  uuid              text,
  sbe_rate_per_h    double precision NOT NULL,
  sbe_rate_trend    double precision,
  sbe_total         bigint,
  dbe_total         bigint,
  retired_pages     bigint,
  row_remap_pending boolean,
  row_remap_failure boolean,
  xid_count         bigint,
  CONSTRAINT ecc_trend_natural_key UNIQUE (node, gpu, ts)
);
SELECT create_hypertable('ecc_trend', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS ckpt_slo (
  ts                     timestamptz      NOT NULL,
  cluster                text             NOT NULL,
  job                    text             NOT NULL,
  step                   bigint           NOT NULL,
  tier                   text             NOT NULL,
  bytes                  bigint           NOT NULL,
  duration_s             double precision NOT NULL,
  throughput_gbps        double precision NOT NULL,
  slo_seconds            double precision NOT NULL,
  compliant              boolean          NOT NULL,
  burn_rate_5m           double precision,
  burn_rate_1h           double precision,
  burn_rate_30m          double precision,
  burn_rate_6h           double precision,
  recommended_interval_s double precision,
  CONSTRAINT ckpt_slo_natural_key UNIQUE (cluster, job, step, tier, ts)
);
SELECT create_hypertable('ckpt_slo', by_range('ts', INTERVAL '30 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS ckpt_slo_job_ts ON ckpt_slo (job, ts DESC);

CREATE TABLE IF NOT EXISTS anomalies (
  ts          timestamptz NOT NULL,
  fingerprint text        NOT NULL,
  status      text        NOT NULL,
  labels      jsonb       NOT NULL,
  annotations jsonb       NOT NULL DEFAULT '{}',
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz,
  value       double precision,
  source      text,
  CONSTRAINT anomalies_natural_key UNIQUE (fingerprint, status, ts)
);
SELECT create_hypertable('anomalies', by_range('ts', INTERVAL '7 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS anomalies_fingerprint_ts ON anomalies (fingerprint, ts);
CREATE INDEX IF NOT EXISTS anomalies_labels ON anomalies USING gin (labels);

CREATE TABLE IF NOT EXISTS alerts (
  ts           timestamptz NOT NULL,
  fingerprint  text        NOT NULL,
  status       text        NOT NULL,
  labels       jsonb       NOT NULL,
  annotations  jsonb       NOT NULL DEFAULT '{}',
  starts_at    timestamptz NOT NULL,
  ends_at      timestamptz,
  members      jsonb       NOT NULL DEFAULT '[]',
  blast_radius jsonb,
  root_cause   text,
  version      bigint
);
-- every state change of an incident is one row: (fingerprint, version) when the correlator numbers
-- its versions, (fingerprint, status, ts) for records that carry no version
CREATE UNIQUE INDEX IF NOT EXISTS alerts_fingerprint_version ON alerts (fingerprint, version) WHERE version IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS alerts_fingerprint_status_ts ON alerts (fingerprint, status, ts) WHERE version IS NULL;
CREATE INDEX IF NOT EXISTS alerts_ts ON alerts (ts DESC);
CREATE INDEX IF NOT EXISTS alerts_fingerprint_ts ON alerts (fingerprint, ts);

CREATE TABLE IF NOT EXISTS dead_letters (
  ts           timestamptz NOT NULL,
  stage        text        NOT NULL,
  reason       text        NOT NULL,
  source_topic text,
  "partition"  integer,
  "offset"     bigint,
  key          text,
  payload      bytea,
  payload_json text,
  error_class  text,
  -- the sink stores its own rejects directly and again when it reads them back from fleet.dlq.v1:
  -- the key makes that (and any replay) one row
  CONSTRAINT dead_letters_natural_key UNIQUE NULLS NOT DISTINCT (stage, source_topic, "partition", "offset", reason, ts)
);
SELECT create_hypertable('dead_letters', by_range('ts', INTERVAL '1 day'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS dead_letters_source_ts ON dead_letters (source_topic, ts DESC);
