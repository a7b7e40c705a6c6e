-- Raw telemetry, one hypertable per topic. Column names are the Avro field names of the topic
-- (ARCHITECTURE.md), epoch-millisecond times become timestamptz, maps/arrays become jsonb.
-- Every table has a natural unique key (it always contains ts, as TimescaleDB requires) so that
-- INSERT ... ON CONFLICT DO NOTHING makes replays and restarts idempotent.
--
-- Chunk intervals, sized for a 10,000-GPU fleet (1,250 nodes x 8 GPUs, 8 HCA ports per node) at 1 Hz:
--   gpu: 10,000 rows/s = 36 M rows/h (~7 GB/h with indexes): 1 hour chunks keep the chunk being
--        written and its indexes in memory and make drop_chunks retention fine-grained.
--   ib:  10,000 ports at 1 Hz, same volume as gpu: 1 hour.
--   pdu, coolant: a few thousand devices/outlets at 0.1-1 Hz: ~10x less than gpu: 1 day.
--   gpu_xid, ckpt: events (a few per GPU per month, a few per job per hour): 7 days.

CREATE TABLE IF NOT EXISTS gpu (
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
  power_w                     double precision,
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
  nvlink_tx_bytes             bigint,
  nvlink_rx_bytes             bigint,
  pcie_replay_total           bigint,
  CONSTRAINT gpu_natural_key UNIQUE (node, gpu, ts),
  -- impossible values are refused (the sink sends such a record to fleet.dlq.v1 with this name)
  CONSTRAINT gpu_index_valid CHECK (gpu >= 0 AND gpu < 256),
  CONSTRAINT gpu_temp_plausible CHECK (temp_c IS NULL OR temp_c BETWEEN -40 AND 200)
);
SELECT create_hypertable('gpu', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS gpu_xid (
  ts          timestamptz NOT NULL,
  cluster     text        NOT NULL,
  node        text        NOT NULL,
  agent_seq   bigint      NOT NULL,
  source      text,
  gpu         integer,
  pci_bus_id  text,
  xid         integer     NOT NULL,
  message     text        NOT NULL,
  pid         bigint,
  -- one record per XID event: the agent's sequence number tells two events in the same ms apart
  CONSTRAINT gpu_xid_natural_key UNIQUE (node, agent_seq, xid, ts)
);
SELECT create_hypertable('gpu_xid', by_range('ts', INTERVAL '7 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS gpu_xid_node_gpu_ts ON gpu_xid (node, gpu, ts DESC);

CREATE TABLE IF NOT EXISTS ib (
  ts                  timestamptz NOT NULL,
  cluster             text        NOT NULL,
  node                text        NOT NULL,
  agent_seq           bigint      NOT NULL,
  source              text,
  device              text        NOT NULL,
  port                integer     NOT NULL,
  rail                integer,
  link_layer          text,
  state               text,
  phys_state          text,
  rate_gbps           double precision,
  xmit_bytes          bigint,
  rcv_bytes           bigint,
  xmit_pkts           bigint,
  rcv_pkts            bigint,
  xmit_wait           bigint,
  symbol_errors       bigint,
  link_downed         bigint,
  link_error_recovery bigint,
  rcv_errors          bigint,
  xmit_discards       bigint,
  ecn_marked_pkts     bigint,
  cnp_sent            bigint,
  cnp_handled         bigint,
  pfc_pause_rx        bigint,
  pfc_pause_tx        bigint,
  counter_width_bits  integer,
  CONSTRAINT ib_natural_key UNIQUE (node, device, port, ts),
  CONSTRAINT ib_port_valid CHECK (port >= 0)
);
SELECT create_hypertable('ib', by_range('ts', INTERVAL '1 hour'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS ib_cluster_rail_ts ON ib (cluster, rail, ts DESC);

CREATE TABLE IF NOT EXISTS pdu (
  ts                timestamptz NOT NULL,
  cluster           text        NOT NULL,
  device            text        NOT NULL,
  agent_seq         bigint      NOT NULL,
  source            text,
  rack              text,
  outlet            text,
  inlet             text,
  phase             text,
  power_w           double precision,
  apparent_power_va double precision,
  current_a         double precision,
  voltage_v         double precision,
  energy_wh         double precision,
  -- a reading is of an outlet or an inlet (the other is null), per phase where the PDU reports phases
  CONSTRAINT pdu_natural_key UNIQUE NULLS NOT DISTINCT (device, outlet, inlet, phase, ts)
);
SELECT create_hypertable('pdu', by_range('ts', INTERVAL '1 day'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS pdu_rack_ts ON pdu (rack, ts DESC);

CREATE TABLE IF NOT EXISTS coolant (
  ts                timestamptz NOT NULL,
  cluster           text        NOT NULL,
  device            text        NOT NULL,
  agent_seq         bigint      NOT NULL,
  source            text,
  loop              text        NOT NULL,
  supply_temp_c     double precision,
  return_temp_c     double precision,
  flow_lpm          double precision,
  pressure_diff_kpa double precision,
  leak_detected     boolean,
  pump_speed_pct    double precision,
  heat_load_kw      double precision,
  CONSTRAINT coolant_natural_key UNIQUE (device, loop, ts)
);
SELECT create_hypertable('coolant', by_range('ts', INTERVAL '1 day'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS ckpt (
  ts          timestamptz NOT NULL,
  cluster     text        NOT NULL,
  node        text        NOT NULL,
  agent_seq   bigint      NOT NULL,
  source      text,
  job         text        NOT NULL,
  step        bigint      NOT NULL,
  bytes       bigint      NOT NULL,
  started_ts  timestamptz NOT NULL,
  finished_ts timestamptz,
  tier        text        NOT NULL,
  status      text        NOT NULL,
  ranks       integer,
  CONSTRAINT ckpt_natural_key UNIQUE (node, job, step, status, ts)
);
SELECT create_hypertable('ckpt', by_range('ts', INTERVAL '7 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS ckpt_job_ts ON ckpt (job, ts DESC);
