-- Views behind the named SRE queries (QueryMain, SreQueries). Views are replaced on every
-- migration that changes them; the queries add only bound parameters (ranges, node, limits).

-- One GPU's raw history.
CREATE OR REPLACE VIEW v_gpu_history AS
SELECT ts, cluster, node, gpu, uuid, model, temp_c, mem_temp_c, power_w, power_limit_w, sm_clock_mhz,
       mem_clock_mhz, util_pct, throttle_reasons, ecc_sbe_total, ecc_dbe_total, retired_pages_sbe,
       retired_pages_dbe, row_remap_pending, row_remap_failure, pcie_replay_total
  FROM gpu;

-- Hourly GPU rollup with the rack of the node (from the current inventory).
CREATE OR REPLACE VIEW v_gpu_hourly AS
SELECT r.bucket, r.cluster, r.node, r.gpu, r.uuid, r.model, i.rack, r.samples, r.temp_c_avg, r.temp_c_max,
       r.power_w_avg, r.throttle_minutes, r.thermal_throttle_minutes, r.ecc_sbe_increase, r.ecc_dbe_increase,
       r.retired_pages_sbe_max, r.retired_pages_dbe_max, r.remapped_rows_uncorrectable_max,
       r.row_remap_pending_any, r.row_remap_failure_any
  FROM gpu_rollup_1h r
  LEFT JOIN inventory_current i ON i.kind = 'node' AND i.id = r.node;

-- Per-minute throttling with the rack (throttle_minutes: the throttled fraction of the minute).
CREATE OR REPLACE VIEW v_gpu_throttle_1m AS
SELECT r.bucket, r.cluster, r.node, r.gpu, coalesce(i.rack, 'unknown') AS rack,
       r.throttle_minutes, r.thermal_throttle_minutes AS thermal_minutes
  FROM gpu_rollup_1m r
  LEFT JOIN inventory_current i ON i.kind = 'node' AND i.id = r.node;

-- Per-minute rail bandwidth.
CREATE OR REPLACE VIEW v_rail_utilisation_1m AS
SELECT bucket, cluster, rail, windows, tx_gbps_avg, tx_gbps_max, rx_gbps_avg, rx_gbps_max, line_rate_gbps,
       utilisation_avg, utilisation_max, ports_up_min, ports_total_max, imbalance_abs_max
  FROM rail_rollup_1m;

-- Checkpoint SLO records.
CREATE OR REPLACE VIEW v_ckpt_slo AS
SELECT ts, cluster, job, step, tier, bytes, duration_s, throughput_gbps, slo_seconds, compliant,
       burn_rate_5m, burn_rate_1h, burn_rate_30m, burn_rate_6h, recommended_interval_s
  FROM ckpt_slo;

-- An incident's timeline: every state change of the alert and of its member anomalies.
CREATE OR REPLACE VIEW v_incident_timeline AS
WITH members AS (
  SELECT DISTINCT a.fingerprint AS incident, m.member
    FROM alerts a, jsonb_array_elements_text(a.members) AS m(member)
)
SELECT a.fingerprint AS incident, a.ts, 'alert'::text AS kind, a.fingerprint, a.status,
       a.labels ->> 'alertname' AS alertname, a.labels ->> 'severity' AS severity,
       a.annotations ->> 'summary' AS summary, a.version,
       concat_ws(' ', 'gpus=' || (a.blast_radius ->> 'gpus'), 'nodes=' || (a.blast_radius ->> 'nodes'),
                 'root_cause=' || a.root_cause) AS detail
  FROM alerts a
UNION ALL
SELECT m.incident, an.ts, 'anomaly'::text, an.fingerprint, an.status,
       an.labels ->> 'alertname', an.labels ->> 'severity', an.annotations ->> 'summary', NULL::bigint,
       concat_ws(' ', 'node=' || (an.labels ->> 'node'), 'gpu=' || (an.labels ->> 'gpu'),
                 'rail=' || (an.labels ->> 'rail'), 'value=' || an.value::text)
  FROM members m
  JOIN anomalies an ON an.fingerprint = m.member;

-- What changed on a node: inventory records whose content differs from the previous one, and
-- every change of job ownership.
CREATE OR REPLACE VIEW v_node_changes AS
WITH inv AS (
  SELECT id AS node, ts,
         jsonb_build_object('rack', rack, 'row', "row", 'gpus', gpus, 'hcas', hcas, 'pdu_outlets', pdu_outlets,
                            'cdu', cdu, 'cdu_loop', cdu_loop, 'rack_cooling', rack_cooling,
                            'attributes', attributes) AS state
    FROM inventory_history
   WHERE kind = 'node'
), inv_lag AS (
  SELECT node, ts, state, lag(state) OVER (PARTITION BY node ORDER BY ts) AS previous FROM inv
), jobs AS (
  SELECT node, ts, allocations AS state, lag(allocations) OVER (PARTITION BY node ORDER BY ts) AS previous
    FROM jobs_history
)
SELECT node, ts, 'inventory'::text AS what,
       (SELECT string_agg(e.key, ',' ORDER BY e.key) FROM jsonb_each(state) e
         WHERE previous IS NULL OR previous -> e.key IS DISTINCT FROM e.value) AS changed,
       state::text AS now
  FROM inv_lag
 WHERE previous IS DISTINCT FROM state
UNION ALL
SELECT node, ts, 'jobs'::text,
       CASE WHEN previous IS NULL THEN 'first record' ELSE 'allocations' END,
       coalesce((SELECT string_agg((a ->> 'job') || ':gpus=' || (a -> 'gpus')::text, ' ' ORDER BY a ->> 'job')
                   FROM jsonb_array_elements(state) a), 'idle')
  FROM jobs
 WHERE previous IS DISTINCT FROM state;

-- GPU health ("lemon") score over the last p_days days; the formula is documented in README.md.
-- 100 = healthy; penalties (each capped):
--   row-remap failure 40; uncorrectable ECC (DBE) 15 per error up to 4; critical XIDs
--   (48, 63, 64, 74, 79, 92, 94, 95) 10 each up to 4; other XIDs 2 each up to 5;
--   corrected ECC (SBE) 5 * log10(1 + count) up to 20; row remap pending at any time 10;
--   retired pages 2 each up to 5; thermal throttling 2 per hour up to 10 hours.
-- A GPU with health below 50 is a lemon.
CREATE OR REPLACE FUNCTION gpu_health(p_days integer)
RETURNS TABLE (cluster text, node text, gpu integer, uuid text, model text, health double precision,
               lemon boolean, main_factor text, ecc_sbe bigint, ecc_dbe bigint, xid_critical bigint,
               xid_other bigint, row_remap_failure boolean, row_remap_pending boolean, retired_pages bigint,
               thermal_throttle_hours double precision)
LANGUAGE sql STABLE AS $fn$
WITH r AS (
  SELECT h.node, h.gpu, last(h.cluster, h.bucket) AS cluster, last(h.uuid, h.bucket) AS uuid,
         last(h.model, h.bucket) AS model,
         sum(h.ecc_sbe_increase)::bigint AS sbe, sum(h.ecc_dbe_increase)::bigint AS dbe,
         coalesce(bool_or(h.row_remap_failure_any), false) AS remap_failure,
         coalesce(bool_or(h.row_remap_pending_any), false) AS remap_pending,
         coalesce(max(h.retired_pages_sbe_max), 0) + coalesce(max(h.retired_pages_dbe_max), 0) AS retired,
         sum(h.thermal_throttle_minutes) / 60.0 AS throttle_hours
    FROM gpu_rollup_1h h
   WHERE h.bucket >= now() - make_interval(days => p_days)
   GROUP BY h.node, h.gpu
), x AS (
  SELECT g.node, g.gpu,
         count(*) FILTER (WHERE g.xid IN (48, 63, 64, 74, 79, 92, 94, 95)) AS crit,
         count(*) FILTER (WHERE g.xid NOT IN (48, 63, 64, 74, 79, 92, 94, 95)) AS other
    FROM gpu_xid g
   WHERE g.ts >= now() - make_interval(days => p_days) AND g.gpu IS NOT NULL
   GROUP BY g.node, g.gpu
), p AS (
  SELECT r.*, coalesce(x.crit, 0) AS crit, coalesce(x.other, 0) AS other,
         CASE WHEN r.remap_failure THEN 40 ELSE 0 END AS p_remap_failure,
         15 * least(r.dbe, 4) AS p_dbe,
         10 * least(coalesce(x.crit, 0), 4) AS p_xid_critical,
         2 * least(coalesce(x.other, 0), 5) AS p_xid_other,
         least(5 * log(1 + r.sbe), 20) AS p_sbe,
         CASE WHEN r.remap_pending THEN 10 ELSE 0 END AS p_remap_pending,
         2 * least(r.retired, 5) AS p_retired,
         2 * least(coalesce(r.throttle_hours, 0), 10) AS p_throttle
    FROM r LEFT JOIN x ON x.node = r.node AND x.gpu = r.gpu
)
SELECT p.cluster, p.node, p.gpu, p.uuid, p.model,
       greatest(0, 100 - (p_remap_failure + p_dbe + p_xid_critical + p_xid_other + p_sbe + p_remap_pending
                          + p_retired + p_throttle))::double precision AS health,
       (100 - (p_remap_failure + p_dbe + p_xid_critical + p_xid_other + p_sbe + p_remap_pending + p_retired
               + p_throttle)) < 50 AS lemon,
       CASE WHEN greatest(p_remap_failure, p_dbe, p_xid_critical, p_xid_other, p_sbe, p_remap_pending, p_retired,
                          p_throttle) = 0 THEN 'none'
            WHEN p_remap_failure >= greatest(p_dbe, p_xid_critical, p_xid_other, p_sbe, p_remap_pending, p_retired, p_throttle) THEN 'row_remap_failure'
            WHEN p_dbe >= greatest(p_xid_critical, p_xid_other, p_sbe, p_remap_pending, p_retired, p_throttle) THEN 'ecc_dbe'
            WHEN p_xid_critical >= greatest(p_xid_other, p_sbe, p_remap_pending, p_retired, p_throttle) THEN 'xid_critical'
            WHEN p_sbe >= greatest(p_xid_other, p_remap_pending, p_retired, p_throttle) THEN 'ecc_sbe'
            WHEN p_remap_pending >= greatest(p_xid_other, p_retired, p_throttle) THEN 'row_remap_pending'
            WHEN p_throttle >= greatest(p_xid_other, p_retired) THEN 'thermal_throttle'
            WHEN p_retired >= p_xid_other THEN 'retired_pages'
            ELSE 'xid_other' END AS main_factor,
       p.sbe, p.dbe, p.crit, p.other, p.remap_failure, p.remap_pending, p.retired::bigint,
       coalesce(p.throttle_hours, 0)
  FROM p
$fn$;

CREATE OR REPLACE VIEW v_gpu_health_90d AS SELECT * FROM gpu_health(90);
