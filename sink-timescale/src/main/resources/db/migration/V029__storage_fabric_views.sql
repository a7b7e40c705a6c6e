-- What the named queries storage-tiers and fabric-config and the console's storage and fabric
-- views read (one definition for all of them).

-- The increase of a cumulative counter between two samples; a counter that went down was reset
-- (controller replaced, client remounted), so its new value is the increase.
CREATE OR REPLACE FUNCTION counter_increase(cur bigint, prev bigint)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN cur IS NULL OR prev IS NULL THEN NULL WHEN cur >= prev THEN cur - prev ELSE cur END
$fn$;

-- Every storage tier of every node over [p_from, p_to): one row per node, tier and device (the NVMe
-- controller or the PFS mount) with its I/O rates and latency per operation over the samples in the
-- range, the NVMe health at the end of the range and its worst values within it, and the storage
-- alerts (StorageTierDegraded, NvmeMediaErrors) active on it or on its whole tier within the range.
-- state: degraded (an alert on the device), tier degraded (the tier-wide alert), else ok.
CREATE OR REPLACE FUNCTION storage_tiers(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (cluster text, node text, tier text, device text, samples bigint, first_ts timestamptz,
               last_ts timestamptz, read_mb_s double precision, write_mb_s double precision,
               read_ms_per_op double precision, write_ms_per_op double precision, media_errors bigint,
               media_errors_added bigint, critical_warning integer, percentage_used integer,
               available_spare_pct_min integer, temp_c_max double precision, state text, alerts text)
LANGUAGE sql STABLE AS $fn$
WITH s AS (
  SELECT st.cluster, st.node, st.tier, st.device, st.ts, st.media_errors, st.critical_warning, st.percentage_used,
         st.available_spare_pct, st.temp_c,
         counter_increase(st.read_bytes, lag(st.read_bytes) OVER w) AS d_read_bytes,
         counter_increase(st.write_bytes, lag(st.write_bytes) OVER w) AS d_write_bytes,
         counter_increase(st.read_ops, lag(st.read_ops) OVER w) AS d_read_ops,
         counter_increase(st.write_ops, lag(st.write_ops) OVER w) AS d_write_ops,
         counter_increase(st.read_time_ms, lag(st.read_time_ms) OVER w) AS d_read_time_ms,
         counter_increase(st.write_time_ms, lag(st.write_time_ms) OVER w) AS d_write_time_ms,
         counter_increase(st.media_errors, lag(st.media_errors) OVER w) AS d_media_errors
    FROM storage st
   WHERE st.ts >= p_from AND st.ts < p_to
  WINDOW w AS (PARTITION BY st.node, st.tier, st.device ORDER BY st.ts)
), d AS (
  SELECT s.node, s.tier, s.device, last(s.cluster, s.ts) AS cluster, count(*) AS samples, min(s.ts) AS first_ts,
         max(s.ts) AS last_ts, extract(epoch FROM max(s.ts) - min(s.ts)) AS span_s,
         sum(s.d_read_bytes) AS read_bytes, sum(s.d_write_bytes) AS write_bytes,
         sum(s.d_read_ops) AS read_ops, sum(s.d_write_ops) AS write_ops,
         sum(s.d_read_time_ms) AS read_time_ms, sum(s.d_write_time_ms) AS write_time_ms,
         last(s.media_errors, s.ts) AS media_errors, sum(s.d_media_errors)::bigint AS media_errors_added,
         last(s.critical_warning, s.ts) AS critical_warning, last(s.percentage_used, s.ts) AS percentage_used,
         min(s.available_spare_pct) AS spare_min, max(s.temp_c) AS temp_max
    FROM s GROUP BY s.node, s.tier, s.device
), latest AS (
  -- each storage anomaly's state: active within the range when firing at its end or fired within it
  SELECT a.fingerprint, a.labels, bool_or(a.status = 'firing' AND a.ts >= p_from) AS fired_within,
         (array_agg(a.status ORDER BY a.ts DESC))[1] AS status_at_end
    FROM anomalies a
   WHERE a.labels ->> 'alertname' IN ('StorageTierDegraded', 'NvmeMediaErrors') AND a.ts < p_to
   GROUP BY a.fingerprint, a.labels
), active AS (
  SELECT l.labels FROM latest l WHERE l.fired_within OR l.status_at_end = 'firing'
)
SELECT d.cluster, d.node, d.tier, d.device, d.samples, d.first_ts, d.last_ts,
       round((d.read_bytes / nullif(d.span_s, 0) / 1e6)::numeric, 3)::double precision,
       round((d.write_bytes / nullif(d.span_s, 0) / 1e6)::numeric, 3)::double precision,
       round((d.read_time_ms::numeric / nullif(d.read_ops, 0)), 3)::double precision,
       round((d.write_time_ms::numeric / nullif(d.write_ops, 0)), 3)::double precision,
       d.media_errors, d.media_errors_added, d.critical_warning, d.percentage_used, d.spare_min, d.temp_max,
       CASE WHEN dev.alerts IS NOT NULL THEN 'degraded' WHEN tw.alerts IS NOT NULL THEN 'tier degraded' ELSE 'ok' END,
       concat_ws(', ', dev.alerts, tw.alerts)
  FROM d
  LEFT JOIN LATERAL (
    SELECT string_agg(DISTINCT (x.labels ->> 'alertname') || ' (' || coalesce(x.labels ->> 'severity', '?') || ')', ', ') AS alerts
      FROM active x
     WHERE x.labels ->> 'node' = d.node AND x.labels ->> 'tier' = d.tier AND x.labels ->> 'device' = d.device) dev ON true
  LEFT JOIN LATERAL (
    SELECT string_agg(DISTINCT (x.labels ->> 'alertname') || ' (tier)', ', ') AS alerts
      FROM active x
     WHERE NOT x.labels ? 'node' AND x.labels ->> 'tier' = d.tier AND x.labels ->> 'cluster' = d.cluster) tw ON true
$fn$;

-- The current configuration of every fabric port (port_config_current) with what is wrong with it:
-- differs_from_rail, the fields whose value differs from the most common value among the rail's
-- ports (computed here, for rails of at least 3 reporting ports), and drift_fields / drift / drift_since,
-- the fields of the port's FabricConfigDrift anomalies firing now (the analytics judge the site
-- policy and the rail's quorum; their summaries say what was expected and by whom).
CREATE OR REPLACE VIEW v_fabric_config AS
WITH drift_latest AS (
  SELECT DISTINCT ON (a.fingerprint) a.fingerprint, a.status, a.starts_at, a.labels, a.annotations
    FROM anomalies a
   WHERE a.labels @> '{"alertname": "FabricConfigDrift"}'
   ORDER BY a.fingerprint, a.ts DESC
), drift AS (
  SELECT f.labels ->> 'node' AS node, f.labels ->> 'device' AS device, (f.labels ->> 'port')::integer AS port,
         array_agg(f.labels ->> 'field' ORDER BY f.labels ->> 'field') AS fields,
         string_agg(f.annotations ->> 'summary', '; ' ORDER BY f.labels ->> 'field') AS summaries,
         min(f.starts_at) AS since
    FROM drift_latest f WHERE f.status = 'firing'
   GROUP BY 1, 2, 3
), rail AS (
  SELECT p.cluster, p.rail, count(*) AS ports,
         mode() WITHIN GROUP (ORDER BY p.mtu_bytes) AS mtu_bytes,
         mode() WITHIN GROUP (ORDER BY p.trust) AS trust,
         mode() WITHIN GROUP (ORDER BY p.pfc_prios) AS pfc_prios,
         mode() WITHIN GROUP (ORDER BY p.ecn_np_prios) AS ecn_np_prios,
         mode() WITHIN GROUP (ORDER BY p.ecn_rp_prios) AS ecn_rp_prios,
         mode() WITHIN GROUP (ORDER BY p.cnp_dscp) AS cnp_dscp,
         mode() WITHIN GROUP (ORDER BY p.dcqcn) AS dcqcn,
         mode() WITHIN GROUP (ORDER BY p.rate_gbps) AS rate_gbps,
         mode() WITHIN GROUP (ORDER BY p.link_width) AS link_width,
         mode() WITHIN GROUP (ORDER BY p.link_speed) AS link_speed,
         mode() WITHIN GROUP (ORDER BY p.cap_mask) AS cap_mask
    FROM port_config_current p WHERE p.rail IS NOT NULL
   GROUP BY p.cluster, p.rail
)
SELECT c.ts, c.cluster, c.node, c.device, c.port, c.netdev, c.rail, c.link_layer, c.mtu_bytes, c.trust,
       c.pfc_prios, c.ecn_np_prios, c.ecn_rp_prios, c.cnp_dscp, c.dcqcn, c.rate_gbps, c.link_width, c.link_speed,
       c.cap_mask, r.ports AS rail_ports,
       CASE WHEN r.ports >= 3 THEN array_remove(ARRAY[
         CASE WHEN c.pfc_prios IS DISTINCT FROM r.pfc_prios AND c.pfc_prios IS NOT NULL THEN 'pfc_prios' END,
         CASE WHEN c.trust IS DISTINCT FROM r.trust AND c.trust IS NOT NULL THEN 'trust' END,
         CASE WHEN c.ecn_np_prios IS DISTINCT FROM r.ecn_np_prios AND c.ecn_np_prios IS NOT NULL THEN 'ecn_np_prios' END,
         CASE WHEN c.ecn_rp_prios IS DISTINCT FROM r.ecn_rp_prios AND c.ecn_rp_prios IS NOT NULL THEN 'ecn_rp_prios' END,
         CASE WHEN c.mtu_bytes IS DISTINCT FROM r.mtu_bytes AND c.mtu_bytes IS NOT NULL THEN 'mtu_bytes' END,
         CASE WHEN c.cnp_dscp IS DISTINCT FROM r.cnp_dscp AND c.cnp_dscp IS NOT NULL THEN 'cnp_dscp' END,
         CASE WHEN c.dcqcn IS DISTINCT FROM r.dcqcn AND c.dcqcn <> '{}'::jsonb THEN 'dcqcn' END,
         CASE WHEN c.rate_gbps IS DISTINCT FROM r.rate_gbps AND c.rate_gbps IS NOT NULL THEN 'rate_gbps' END,
         CASE WHEN c.link_width IS DISTINCT FROM r.link_width AND c.link_width IS NOT NULL THEN 'link_width' END,
         CASE WHEN c.link_speed IS DISTINCT FROM r.link_speed AND c.link_speed IS NOT NULL THEN 'link_speed' END,
         CASE WHEN c.cap_mask IS DISTINCT FROM r.cap_mask AND c.cap_mask IS NOT NULL THEN 'cap_mask' END], NULL)
       ELSE ARRAY[]::text[] END AS differs_from_rail,
       coalesce(d.fields, ARRAY[]::text[]) AS drift_fields, d.summaries AS drift, d.since AS drift_since
  FROM port_config_current c
  LEFT JOIN rail r ON r.cluster = c.cluster AND r.rail = c.rail
  LEFT JOIN drift d ON d.node = c.node AND d.device = c.device AND d.port = c.port;

GRANT SELECT ON v_fabric_config TO fleetscope_reader, fleetscope_writer;
GRANT EXECUTE ON FUNCTION counter_increase(bigint, bigint), storage_tiers(timestamptz, timestamptz)
  TO fleetscope_reader, fleetscope_writer;
