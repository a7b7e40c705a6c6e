-- v_fabric_config (V029) with the ports' active and largest MTU and their SL-to-VL table (V032):
-- the three columns come last (a view keeps its columns' order), and differs_from_rail also names
-- active_mtu and sl2vl when a port's value differs from its rail's most common one.
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
         mode() WITHIN GROUP (ORDER BY p.cap_mask) AS cap_mask,
         mode() WITHIN GROUP (ORDER BY p.active_mtu) AS active_mtu,
         mode() WITHIN GROUP (ORDER BY p.sl2vl) AS sl2vl
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
         CASE WHEN c.cap_mask IS DISTINCT FROM r.cap_mask AND c.cap_mask IS NOT NULL THEN 'cap_mask' END,
         CASE WHEN c.active_mtu IS DISTINCT FROM r.active_mtu AND c.active_mtu IS NOT NULL THEN 'active_mtu' END,
         CASE WHEN c.sl2vl IS DISTINCT FROM r.sl2vl AND c.sl2vl IS NOT NULL THEN 'sl2vl' END], NULL)
       ELSE ARRAY[]::text[] END AS differs_from_rail,
       coalesce(d.fields, ARRAY[]::text[]) AS drift_fields, d.summaries AS drift, d.since AS drift_since,
       c.active_mtu, c.max_mtu, c.sl2vl
  FROM port_config_current c
  LEFT JOIN rail r ON r.cluster = c.cluster AND r.rail = c.rail
  LEFT JOIN drift d ON d.node = c.node AND d.device = c.device AND d.port = c.port;

GRANT SELECT ON v_fabric_config TO fleetscope_reader, fleetscope_writer;
