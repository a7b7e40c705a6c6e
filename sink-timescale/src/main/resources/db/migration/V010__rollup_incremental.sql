-- Incremental rollups (replaces the 1-minute GPU refresh of V005, same results).
-- The maintainer now refreshes the 1-minute buckets that were written (not whole hours), so a
-- refresh reads the new rows only; the counter deltas still reach back to each GPU's previous
-- sample within 10 minutes, now found through the natural key (node, gpu, ts) once per GPU instead
-- of by reading every row of the 10 minutes before the range (at 20,000 GPUs that was 12 M rows a
-- minute, and widening to whole hours made each refresh recompute the hour so far). The inner
-- query carries only the columns the rollup reads, and groups by (node, gpu, bucket), the order
-- the window already sorted by, so the grouping needs no second sort of the minute's rows.
--
-- A range can be narrowed to one node (rollup_invalidations.node, logged by the sink for
-- stragglers: rows minutes late, a few at a time): then only that node's buckets are recomputed,
-- through the natural key, up to the minute of each of its GPUs' next sample (whose delta the late
-- row changes), instead of every GPU's buckets of those minutes.

ALTER TABLE rollup_invalidations ADD COLUMN IF NOT EXISTS node text;

DROP FUNCTION IF EXISTS refresh_gpu_rollup_1m(timestamptz, timestamptz);

CREATE OR REPLACE FUNCTION refresh_gpu_rollup_1m(p_from timestamptz, p_to timestamptz, p_node text DEFAULT NULL,
    p_reach_limit timestamptz DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  n bigint;
  v_to timestamptz := p_to;
  v_next timestamptz;
BEGIN
  IF p_node IS NOT NULL THEN
    -- the late rows change the delta of each GPU's next sample: reach that sample's minute
    SELECT max(nx.ts) INTO v_next
      FROM (SELECT DISTINCT gpu FROM gpu WHERE node = p_node AND ts >= p_from AND ts < p_to) k
      CROSS JOIN LATERAL (SELECT b.ts FROM gpu b
                           WHERE b.node = p_node AND b.gpu = k.gpu AND b.ts >= p_to
                             AND b.ts < p_to + INTERVAL '10 minutes'
                           ORDER BY b.ts LIMIT 1) nx;
    IF v_next IS NOT NULL THEN
      v_to := greatest(p_to, time_bucket(INTERVAL '1 minute', v_next) + INTERVAL '1 minute');
    END IF;
    IF p_reach_limit IS NOT NULL THEN
      v_to := greatest(p_to, least(v_to, p_reach_limit)); -- not into a minute that is still filling
    END IF;
  END IF;
  -- planned per call with the actual range (and node), so a one-node refresh uses the natural key
  EXECUTE format($q$
  INSERT INTO gpu_rollup_1m AS r (bucket, cluster, node, gpu, uuid, model, samples, temp_c_avg, temp_c_max,
      mem_temp_c_max, power_w_avg, power_w_max, util_pct_avg, sm_clock_mhz_avg, throttled_samples,
      thermal_throttled_samples, throttle_minutes, thermal_throttle_minutes, ecc_sbe_increase, ecc_dbe_increase, retired_pages_sbe_max,
      retired_pages_dbe_max, remapped_rows_uncorrectable_max, row_remap_pending_any, row_remap_failure_any)
  SELECT time_bucket(INTERVAL '1 minute', ts), last(cluster, ts), node, gpu, last(uuid, ts), last(model, ts),
         count(*), avg(temp_c), max(temp_c), max(mem_temp_c), avg(power_w), max(power_w), avg(util_pct),
         avg(sm_clock_mhz),
         count(*) FILTER (WHERE (coalesce(throttle_reasons, 0) & 236) <> 0),
         count(*) FILTER (WHERE (coalesce(throttle_reasons, 0) & 104) <> 0),
         (count(*) FILTER (WHERE (coalesce(throttle_reasons, 0) & 236) <> 0))::double precision / count(*),
         (count(*) FILTER (WHERE (coalesce(throttle_reasons, 0) & 104) <> 0))::double precision / count(*),
         coalesce(sum(CASE WHEN d_sbe IS NULL THEN 0 WHEN d_sbe >= 0 THEN d_sbe ELSE ecc_sbe_total END), 0),
         coalesce(sum(CASE WHEN d_dbe IS NULL THEN 0 WHEN d_dbe >= 0 THEN d_dbe ELSE ecc_dbe_total END), 0),
         max(retired_pages_sbe), max(retired_pages_dbe), max(remapped_rows_uncorrectable),
         bool_or(row_remap_pending), bool_or(row_remap_failure)
    FROM (SELECT g.*,
                 ecc_sbe_total - lag(ecc_sbe_total) OVER w AS d_sbe,
                 ecc_dbe_total - lag(ecc_dbe_total) OVER w AS d_dbe
            FROM (SELECT r.ts, r.cluster, r.node, r.gpu, r.uuid, r.model, r.temp_c, r.mem_temp_c, r.power_w, r.util_pct,
                           r.sm_clock_mhz, r.throttle_reasons, r.ecc_sbe_total, r.ecc_dbe_total, r.retired_pages_sbe, r.retired_pages_dbe, r.remapped_rows_uncorrectable, r.row_remap_pending, r.row_remap_failure
                    FROM gpu r WHERE r.ts >= $1 AND r.ts < $2 %1$s
                  UNION ALL
                  -- each GPU's last sample in the 10 minutes before the range, by its natural key
                  SELECT p.*
                    FROM (SELECT DISTINCT node, gpu FROM gpu r WHERE ts >= $1 AND ts < $2 %1$s) k
                    CROSS JOIN LATERAL (SELECT b.ts, b.cluster, b.node, b.gpu, b.uuid, b.model, b.temp_c, b.mem_temp_c, b.power_w, b.util_pct,
                                                 b.sm_clock_mhz, b.throttle_reasons, b.ecc_sbe_total, b.ecc_dbe_total, b.retired_pages_sbe, b.retired_pages_dbe, b.remapped_rows_uncorrectable, b.row_remap_pending, b.row_remap_failure
                                          FROM gpu b
                                         WHERE b.node = k.node AND b.gpu = k.gpu
                                           AND b.ts >= $1 - INTERVAL '10 minutes' AND b.ts < $1
                                         ORDER BY b.ts DESC LIMIT 1) p) g
          WINDOW w AS (PARTITION BY g.node, g.gpu ORDER BY g.ts)) s
   WHERE ts >= $1 AND ts < $2
   GROUP BY node, gpu, 1
  ON CONFLICT (node, gpu, bucket) DO UPDATE SET
      cluster = EXCLUDED.cluster, uuid = EXCLUDED.uuid, model = EXCLUDED.model, samples = EXCLUDED.samples,
      temp_c_avg = EXCLUDED.temp_c_avg, temp_c_max = EXCLUDED.temp_c_max, mem_temp_c_max = EXCLUDED.mem_temp_c_max,
      power_w_avg = EXCLUDED.power_w_avg, power_w_max = EXCLUDED.power_w_max, util_pct_avg = EXCLUDED.util_pct_avg,
      sm_clock_mhz_avg = EXCLUDED.sm_clock_mhz_avg, throttled_samples = EXCLUDED.throttled_samples,
      thermal_throttled_samples = EXCLUDED.thermal_throttled_samples, throttle_minutes = EXCLUDED.throttle_minutes,
      thermal_throttle_minutes = EXCLUDED.thermal_throttle_minutes, ecc_sbe_increase = EXCLUDED.ecc_sbe_increase,
      ecc_dbe_increase = EXCLUDED.ecc_dbe_increase, retired_pages_sbe_max = EXCLUDED.retired_pages_sbe_max,
      retired_pages_dbe_max = EXCLUDED.retired_pages_dbe_max,
      remapped_rows_uncorrectable_max = EXCLUDED.remapped_rows_uncorrectable_max,
      row_remap_pending_any = EXCLUDED.row_remap_pending_any, row_remap_failure_any = EXCLUDED.row_remap_failure_any
$q$, CASE WHEN p_node IS NULL THEN '' ELSE 'AND r.node = $3' END)
  USING p_from, v_to, p_node;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;

REVOKE EXECUTE ON FUNCTION refresh_gpu_rollup_1m(timestamptz, timestamptz, text, timestamptz) FROM PUBLIC, fleetscope_reader;
GRANT EXECUTE ON FUNCTION refresh_gpu_rollup_1m(timestamptz, timestamptz, text, timestamptz) TO fleetscope_writer;
