-- 1-minute and 1-hour rollups of GPU and rail metrics, kept for 400 days by default (raw: 14).
-- They are plain hypertables maintained by the sink (RollupMaintainer) on both TimescaleDB
-- editions: every batch the sink writes into gpu or rail_bw logs its time range in
-- rollup_invalidations in the same transaction, and the maintainer recomputes exactly the buckets
-- those ranges touch (an invalidation log, like TimescaleDB's continuous aggregates keep). Continuous
-- aggregates are not used even where the community edition has them: the ECC columns are increases
-- of counters that reset on driver reload, which needs lag() over the previous sample, and window
-- functions are not allowed in a continuous aggregate.
--
-- Throttle bits (NVML clock event reasons): 0x4 SW power cap, 0x8 HW slowdown, 0x20 SW thermal,
-- 0x40 HW thermal, 0x80 HW power brake. "throttled" = any of them (mask 236); "thermal" = 0x20|0x40|0x8
-- (mask 104). Idle (0x1) and application clocks (0x2) are not throttling.
--
-- Chunks: gpu_rollup_1m has 10,000 GPUs x 1,440 rows a day = 14 M rows/day: 1 day chunks;
-- gpu_rollup_1h 240 k rows/day: 30 days; rail rollups are tiny: 30 and 365 days.

CREATE TABLE IF NOT EXISTS rollup_invalidations (
  source    text        NOT NULL,
  from_ts   timestamptz NOT NULL,
  to_ts     timestamptz NOT NULL,
  logged_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS rollup_invalidations_source ON rollup_invalidations (source);

CREATE TABLE IF NOT EXISTS gpu_rollup_1m (
  bucket                          timestamptz NOT NULL,
  cluster                         text        NOT NULL,
  node                            text        NOT NULL,
  gpu                             integer     NOT NULL,
  uuid                            text,
  model                           text,
  samples                         integer     NOT NULL,
  temp_c_avg                      double precision,
  temp_c_max                      double precision,
  mem_temp_c_max                  double precision,
  power_w_avg                     double precision,
  power_w_max                     double precision,
  util_pct_avg                    double precision,
  sm_clock_mhz_avg                double precision,
  throttled_samples               integer     NOT NULL,
  thermal_throttled_samples       integer     NOT NULL,
  -- minutes in which the GPU was throttled: per 1-minute bucket the throttled fraction of its
  -- samples, summed in the hourly rollup (exact at any sampling rate)
  throttle_minutes                double precision NOT NULL,
  thermal_throttle_minutes        double precision NOT NULL,
  ecc_sbe_increase                bigint      NOT NULL,
  ecc_dbe_increase                bigint      NOT NULL,
  retired_pages_sbe_max           bigint,
  retired_pages_dbe_max           bigint,
  remapped_rows_uncorrectable_max bigint,
  row_remap_pending_any           boolean,
  row_remap_failure_any           boolean,
  PRIMARY KEY (node, gpu, bucket)
);
SELECT create_hypertable('gpu_rollup_1m', by_range('bucket', INTERVAL '1 day'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS gpu_rollup_1h (LIKE gpu_rollup_1m INCLUDING DEFAULTS);
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'gpu_rollup_1h_pkey') THEN
    ALTER TABLE gpu_rollup_1h ADD CONSTRAINT gpu_rollup_1h_pkey PRIMARY KEY (node, gpu, bucket);
  END IF;
END
$$;
SELECT create_hypertable('gpu_rollup_1h', by_range('bucket', INTERVAL '30 days'), if_not_exists => TRUE);
CREATE INDEX IF NOT EXISTS gpu_rollup_1h_bucket ON gpu_rollup_1h (bucket DESC, node, gpu);

CREATE TABLE IF NOT EXISTS rail_rollup_1m (
  bucket            timestamptz NOT NULL,
  cluster           text        NOT NULL,
  rail              integer     NOT NULL,
  windows           integer     NOT NULL,
  tx_gbps_avg       double precision,
  tx_gbps_max       double precision,
  rx_gbps_avg       double precision,
  rx_gbps_max       double precision,
  line_rate_gbps    double precision,
  utilisation_avg   double precision,
  utilisation_max   double precision,
  ports_up_min      integer,
  ports_total_max   integer,
  imbalance_abs_max double precision,
  PRIMARY KEY (cluster, rail, bucket)
);
SELECT create_hypertable('rail_rollup_1m', by_range('bucket', INTERVAL '30 days'), if_not_exists => TRUE);

CREATE TABLE IF NOT EXISTS rail_rollup_1h (LIKE rail_rollup_1m INCLUDING DEFAULTS);
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'rail_rollup_1h_pkey') THEN
    ALTER TABLE rail_rollup_1h ADD CONSTRAINT rail_rollup_1h_pkey PRIMARY KEY (cluster, rail, bucket);
  END IF;
END
$$;
SELECT create_hypertable('rail_rollup_1h', by_range('bucket', INTERVAL '365 days'), if_not_exists => TRUE);

-- Recomputes the 1-minute GPU buckets in [p_from, p_to) (both aligned to the minute by the caller)
-- from raw rows. Counter increases: delta to the previous sample of the same GPU (looked up to 10
-- minutes before p_from); a value lower than the previous one is a reset and counts from zero.
CREATE OR REPLACE FUNCTION refresh_gpu_rollup_1m(p_from timestamptz, p_to timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE n bigint;
BEGIN
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
            FROM gpu g
           WHERE g.ts >= p_from - INTERVAL '10 minutes' AND g.ts < p_to
          WINDOW w AS (PARTITION BY g.node, g.gpu ORDER BY g.ts)) s
   WHERE ts >= p_from AND ts < p_to
   GROUP BY 1, node, gpu
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
      row_remap_pending_any = EXCLUDED.row_remap_pending_any, row_remap_failure_any = EXCLUDED.row_remap_failure_any;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;

-- Recomputes the 1-hour GPU buckets in [p_from, p_to) (aligned to the hour) from the 1-minute rollup.
CREATE OR REPLACE FUNCTION refresh_gpu_rollup_1h(p_from timestamptz, p_to timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE n bigint;
BEGIN
  INSERT INTO gpu_rollup_1h AS r (bucket, cluster, node, gpu, uuid, model, samples, temp_c_avg, temp_c_max,
      mem_temp_c_max, power_w_avg, power_w_max, util_pct_avg, sm_clock_mhz_avg, throttled_samples,
      thermal_throttled_samples, throttle_minutes, thermal_throttle_minutes, ecc_sbe_increase, ecc_dbe_increase, retired_pages_sbe_max,
      retired_pages_dbe_max, remapped_rows_uncorrectable_max, row_remap_pending_any, row_remap_failure_any)
  SELECT time_bucket(INTERVAL '1 hour', bucket), last(cluster, bucket), node, gpu, last(uuid, bucket),
         last(model, bucket), sum(samples),
         sum(temp_c_avg * samples) / nullif(sum(samples) FILTER (WHERE temp_c_avg IS NOT NULL), 0), max(temp_c_max),
         max(mem_temp_c_max),
         sum(power_w_avg * samples) / nullif(sum(samples) FILTER (WHERE power_w_avg IS NOT NULL), 0), max(power_w_max),
         sum(util_pct_avg * samples) / nullif(sum(samples) FILTER (WHERE util_pct_avg IS NOT NULL), 0),
         sum(sm_clock_mhz_avg * samples) / nullif(sum(samples) FILTER (WHERE sm_clock_mhz_avg IS NOT NULL), 0),
         sum(throttled_samples), sum(thermal_throttled_samples), sum(throttle_minutes),
         sum(thermal_throttle_minutes), sum(ecc_sbe_increase), sum(ecc_dbe_increase),
         max(retired_pages_sbe_max), max(retired_pages_dbe_max), max(remapped_rows_uncorrectable_max),
         bool_or(row_remap_pending_any), bool_or(row_remap_failure_any)
    FROM gpu_rollup_1m
   WHERE bucket >= p_from AND bucket < p_to
   GROUP BY 1, node, gpu
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
      row_remap_pending_any = EXCLUDED.row_remap_pending_any, row_remap_failure_any = EXCLUDED.row_remap_failure_any;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;

-- Recomputes rail buckets of one width ('1 minute' from rail_bw, '1 hour' from rail_rollup_1m).
CREATE OR REPLACE FUNCTION refresh_rail_rollup_1m(p_from timestamptz, p_to timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE n bigint;
BEGIN
  INSERT INTO rail_rollup_1m (bucket, cluster, rail, windows, tx_gbps_avg, tx_gbps_max, rx_gbps_avg, rx_gbps_max,
      line_rate_gbps, utilisation_avg, utilisation_max, ports_up_min, ports_total_max, imbalance_abs_max)
  SELECT time_bucket(INTERVAL '1 minute', ts), cluster, rail, count(*), avg(tx_gbps), max(tx_gbps), avg(rx_gbps),
         max(rx_gbps), max(line_rate_gbps), avg(utilisation), max(utilisation), min(ports_up), max(ports_total),
         max(abs(imbalance))
    FROM rail_bw
   WHERE ts >= p_from AND ts < p_to
   GROUP BY 1, cluster, rail
  ON CONFLICT (cluster, rail, bucket) DO UPDATE SET
      windows = EXCLUDED.windows, tx_gbps_avg = EXCLUDED.tx_gbps_avg, tx_gbps_max = EXCLUDED.tx_gbps_max,
      rx_gbps_avg = EXCLUDED.rx_gbps_avg, rx_gbps_max = EXCLUDED.rx_gbps_max, line_rate_gbps = EXCLUDED.line_rate_gbps,
      utilisation_avg = EXCLUDED.utilisation_avg, utilisation_max = EXCLUDED.utilisation_max,
      ports_up_min = EXCLUDED.ports_up_min, ports_total_max = EXCLUDED.ports_total_max,
      imbalance_abs_max = EXCLUDED.imbalance_abs_max;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;

CREATE OR REPLACE FUNCTION refresh_rail_rollup_1h(p_from timestamptz, p_to timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE n bigint;
BEGIN
  INSERT INTO rail_rollup_1h (bucket, cluster, rail, windows, tx_gbps_avg, tx_gbps_max, rx_gbps_avg, rx_gbps_max,
      line_rate_gbps, utilisation_avg, utilisation_max, ports_up_min, ports_total_max, imbalance_abs_max)
  SELECT time_bucket(INTERVAL '1 hour', bucket), cluster, rail, sum(windows),
         sum(tx_gbps_avg * windows) / sum(windows), max(tx_gbps_max),
         sum(rx_gbps_avg * windows) / sum(windows), max(rx_gbps_max), max(line_rate_gbps),
         sum(utilisation_avg * windows) / sum(windows), max(utilisation_max), min(ports_up_min),
         max(ports_total_max), max(imbalance_abs_max)
    FROM rail_rollup_1m
   WHERE bucket >= p_from AND bucket < p_to
   GROUP BY 1, cluster, rail
  ON CONFLICT (cluster, rail, bucket) DO UPDATE SET
      windows = EXCLUDED.windows, tx_gbps_avg = EXCLUDED.tx_gbps_avg, tx_gbps_max = EXCLUDED.tx_gbps_max,
      rx_gbps_avg = EXCLUDED.rx_gbps_avg, rx_gbps_max = EXCLUDED.rx_gbps_max, line_rate_gbps = EXCLUDED.line_rate_gbps,
      utilisation_avg = EXCLUDED.utilisation_avg, utilisation_max = EXCLUDED.utilisation_max,
      ports_up_min = EXCLUDED.ports_up_min, ports_total_max = EXCLUDED.ports_total_max,
      imbalance_abs_max = EXCLUDED.imbalance_abs_max;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;
