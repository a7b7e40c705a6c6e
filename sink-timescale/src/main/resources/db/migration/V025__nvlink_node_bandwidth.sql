-- NVLink throughput per node over [from_ts, to_ts), in Gbit/s like the rails' bandwidth (rail_bw), for the
-- console's rail view and the named query nvlink-node-bandwidth. Per link: DCGM's rate where the row has
-- one, else the growth of the byte counters (nvidia-smi nvlink -gt d) since the link's previous row in the
-- range (a counter that went down, a reset, gives no rate for that step); the link's rates are averaged
-- over the range and a node's links summed (a link -1 row is a GPU's links together: the agent sends it
-- only for what no single link reports). links: the links with a rate; last_ts: the newest row.
CREATE OR REPLACE FUNCTION nvlink_node_bandwidth(from_ts timestamptz, to_ts timestamptz)
RETURNS TABLE (cluster text, node text, links bigint, nvlink_tx_gbps double precision, nvlink_rx_gbps double precision,
               last_ts timestamptz)
LANGUAGE sql STABLE AS $$
  WITH s AS (
    SELECT n.cluster, n.node, n.gpu, n.link, n.ts, n.tx_bytes_per_s, n.rx_bytes_per_s, n.tx_bytes, n.rx_bytes,
           lag(n.ts) OVER w AS prev_ts, lag(n.tx_bytes) OVER w AS prev_tx, lag(n.rx_bytes) OVER w AS prev_rx
    FROM nvlink n WHERE n.ts >= from_ts AND n.ts < to_ts
    WINDOW w AS (PARTITION BY n.cluster, n.node, n.gpu, n.link ORDER BY n.ts)),
  r AS (
    SELECT s.cluster, s.node, s.gpu, s.link, s.ts,
           coalesce(s.tx_bytes_per_s, CASE WHEN s.ts > s.prev_ts AND s.tx_bytes >= s.prev_tx
             THEN (s.tx_bytes - s.prev_tx) / extract(epoch FROM s.ts - s.prev_ts)::double precision END) AS tx,
           coalesce(s.rx_bytes_per_s, CASE WHEN s.ts > s.prev_ts AND s.rx_bytes >= s.prev_rx
             THEN (s.rx_bytes - s.prev_rx) / extract(epoch FROM s.ts - s.prev_ts)::double precision END) AS rx
    FROM s),
  l AS (
    SELECT r.cluster, r.node, r.gpu, r.link, avg(r.tx) AS tx, avg(r.rx) AS rx, max(r.ts) AS last_ts
    FROM r GROUP BY r.cluster, r.node, r.gpu, r.link)
  SELECT l.cluster, l.node, count(*) FILTER (WHERE l.tx IS NOT NULL OR l.rx IS NOT NULL) AS links,
         sum(l.tx) * 8 / 1e9 AS nvlink_tx_gbps, sum(l.rx) * 8 / 1e9 AS nvlink_rx_gbps, max(l.last_ts) AS last_ts
  FROM l GROUP BY l.cluster, l.node
$$;
GRANT EXECUTE ON FUNCTION nvlink_node_bandwidth(timestamptz, timestamptz) TO fleetscope_writer, fleetscope_reader;
