-- Community edition only: the rail rollups become continuous aggregates (hierarchical: the hour
-- from the minute), with the same names and columns as the Apache edition's tables of V005, so
-- v_rail_utilisation_1m, the named queries and the console read them unchanged. TimescaleDB keeps
-- them up to date: its invalidation log follows every write into rail_bw (late rows and backfill
-- included), refresh policies (installed by the sink at start, rollup.* settings) refresh recent
-- buckets, and the sink refreshes the ranges it logged for older data (ContinuousAggregates).
--
-- The GPU rollups stay tables maintained by the sink on both editions: their ECC columns are
-- increases of counters that reset on driver reload, computed with lag() over each GPU's previous
-- sample, and a continuous aggregate cannot contain a window function (or reach a sample before
-- its bucket). They are compressed like the raw tables (V008).
DROP VIEW IF EXISTS v_rail_utilisation_1m;
DROP TABLE IF EXISTS rail_rollup_1h;
DROP TABLE IF EXISTS rail_rollup_1m;
DROP FUNCTION IF EXISTS refresh_rail_rollup_1m(timestamptz, timestamptz);
DROP FUNCTION IF EXISTS refresh_rail_rollup_1h(timestamptz, timestamptz);

CREATE MATERIALIZED VIEW rail_rollup_1m WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT time_bucket(INTERVAL '1 minute', ts) AS bucket, cluster, rail,
       count(*)::integer AS windows,
       avg(tx_gbps) AS tx_gbps_avg, max(tx_gbps) AS tx_gbps_max,
       avg(rx_gbps) AS rx_gbps_avg, max(rx_gbps) AS rx_gbps_max,
       max(line_rate_gbps) AS line_rate_gbps,
       avg(utilisation) AS utilisation_avg, max(utilisation) AS utilisation_max,
       min(ports_up) AS ports_up_min, max(ports_total) AS ports_total_max,
       max(abs(imbalance)) AS imbalance_abs_max
  FROM rail_bw
 GROUP BY 1, cluster, rail
WITH NO DATA;

CREATE MATERIALIZED VIEW rail_rollup_1h WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT time_bucket(INTERVAL '1 hour', bucket) AS bucket, cluster, rail,
       sum(windows)::integer AS windows,
       sum(tx_gbps_avg * windows) / sum(windows) AS tx_gbps_avg, max(tx_gbps_max) AS tx_gbps_max,
       sum(rx_gbps_avg * windows) / sum(windows) AS rx_gbps_avg, max(rx_gbps_max) AS rx_gbps_max,
       max(line_rate_gbps) AS line_rate_gbps,
       sum(utilisation_avg * windows) / sum(windows) AS utilisation_avg, max(utilisation_max) AS utilisation_max,
       min(ports_up_min) AS ports_up_min, max(ports_total_max) AS ports_total_max,
       max(imbalance_abs_max) AS imbalance_abs_max
  FROM rail_rollup_1m
 GROUP BY 1, cluster, rail
WITH NO DATA;

ALTER MATERIALIZED VIEW rail_rollup_1m SET (timescaledb.compress = true, timescaledb.compress_segmentby = 'cluster, rail',
  timescaledb.compress_orderby = 'bucket');
ALTER MATERIALIZED VIEW rail_rollup_1h SET (timescaledb.compress = true, timescaledb.compress_segmentby = 'cluster, rail',
  timescaledb.compress_orderby = 'bucket');

CREATE OR REPLACE VIEW v_rail_utilisation_1m AS
SELECT bucket, cluster, rail, windows, tx_gbps_avg, tx_gbps_max, rx_gbps_avg, rx_gbps_max, line_rate_gbps,
       utilisation_avg, utilisation_max, ports_up_min, ports_total_max, imbalance_abs_max
  FROM rail_rollup_1m;

GRANT SELECT ON rail_rollup_1m, rail_rollup_1h, v_rail_utilisation_1m TO fleetscope_reader;
GRANT SELECT ON rail_rollup_1m, rail_rollup_1h, v_rail_utilisation_1m TO fleetscope_writer;
