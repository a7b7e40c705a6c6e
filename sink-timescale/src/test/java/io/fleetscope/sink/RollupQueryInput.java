package io.fleetscope.sink;

import java.time.Duration;
import java.time.Instant;

/**
 * The input of {@link StorageBenchmark}'s rollup queries: raw GPU samples, two per GPU-hour (at :00:00
 * and :59:59), which the sink's own refresh functions turn into the 1-minute and hourly rollups one hour
 * at a time, as the rollup maintainer refreshes the ranges the sink logged. Every {@link #ECC_GPU_EVERY}th
 * GPU gains one corrected ECC error between the two samples of each hour and one more across each hour
 * boundary, so its hourly increase is 2 only where the refresh of the hour found the GPU's last sample of
 * the hour before (the previous-sample lookup of {@code refresh_gpu_rollup_1m}), and 1 where it did not.
 */
final class RollupQueryInput {
  /** The end of the last hour of samples (fixed once, so that an hour turning during a run shifts nothing). */
  private final Instant end;

  RollupQueryInput(Instant end) {
    this.end = end;
  }

  /** Hours of samples, ending at {@link #end}. */
  static final int HOURS = 720;
  /** Every this many-th GPU (by node * 8 + gpu) counts corrected ECC errors. */
  static final int ECC_GPU_EVERY = 501;
  /** The corrected ECC errors such a GPU gains in each hour that has an hour before it. */
  static final int SBE_PER_HOUR = 2;

  /** The start of the hour in column {@code h} (0 .. HOURS-1), as SQL. */
  private String hourColumn() {
    return "'" + end + "'::timestamptz - make_interval(hours => " + HOURS + " - h)";
  }

  /** Inserts the raw samples of {@code nodes} x 8 GPUs, values at the precision the sink stores. */
  String insertRaw(int nodes) {
    return "INSERT INTO gpu_raw (ts, cluster, node, agent_seq, source, gpu, uuid, model, temp_c, mem_temp_c, power_mw, "
        + "power_limit_w, sm_clock_mhz, util_pct, throttle_reasons, ecc_sbe_total, ecc_dbe_total, retired_pages_sbe, "
        + "retired_pages_dbe, row_remap_pending, row_remap_failure, remapped_rows_uncorrectable) "
        + "SELECT " + hourColumn() + " + make_interval(secs => 3599 * k), 'bench', 'node-' || lpad(n::text, 5, '0'), 2 * h + k, "
        + "'bench', g, 'GPU-' || n || '-' || g, 'H100', 60 + (n + g + h) % 15 + 5 * k, 75 + (n + h) % 10, "
        + "(500 + (n * 7 + g + h) % 150) * 1000, 700, 1755, 80 + (n + h) % 20, "
        + "CASE WHEN (n + h) % 97 = 0 THEN 64 ELSE 0 END, "
        + "CASE WHEN (n * 8 + g) % " + ECC_GPU_EVERY + " = 0 THEN 2 * h + k ELSE 0 END, 0, 0, 0, false, false, 0 "
        + "FROM generate_series(0, " + (HOURS - 1) + ") h, generate_series(0, " + (nodes - 1) + ") n, "
        + "generate_series(0, 7) g, generate_series(0, 1) k";
  }

  /** The start of hour {@code h}, as SQL. */
  String hourStart(int h) {
    return "'" + end.minus(Duration.ofHours(HOURS - h)) + "'::timestamptz";
  }

  /**
   * This input's GPUs (cluster {@code bench}) with corrected ECC errors in the hourly rollup (every hour
   * but the first, which has no hour before it), and the fewest and most errors among them: {count, min, max}.
   */
  String eccCheck() {
    return "SELECT count(*), coalesce(min(s), 0), coalesce(max(s), 0) FROM (SELECT node, gpu, sum(ecc_sbe_increase) AS s "
        + "FROM gpu_rollup_1h WHERE cluster = 'bench' AND bucket > " + hourStart(0) + " GROUP BY node, gpu HAVING sum(ecc_sbe_increase) > 0) t";
  }

  /** How many of {@code gpus} GPUs count ECC errors. */
  static long eccGpus(int gpus) {
    return (gpus - 1) / ECC_GPU_EVERY + 1;
  }
}
