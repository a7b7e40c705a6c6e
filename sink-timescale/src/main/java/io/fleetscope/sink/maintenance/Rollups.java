package io.fleetscope.sink.maintenance;

import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.db.Edition;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Keeps the 1-minute and 1-hour rollups (gpu_rollup_1m/1h, rail_rollup_1m/1h) up to date from the
 * ranges the writers logged in rollup_invalidations; the sink calls {@link #refresh} every
 * {@code rollup.interval_seconds}. The relations and their columns are the same on both editions.
 */
public interface Rollups {
  /** Refreshes what was logged since the last run; returns the 1-minute buckets written (where known). */
  long refresh(Connection c) throws SQLException;

  /**
   * Apache edition: {@link RollupMaintainer} for everything. Community edition: the rail rollups
   * are continuous aggregates ({@link ContinuousAggregates}), the GPU rollups stay with the
   * maintainer (their counter increases need a window function).
   */
  static Rollups forEdition(Edition e, SinkConfig config) {
    return switch (e) {
      case APACHE -> new RollupMaintainer();
      case COMMUNITY -> new ContinuousAggregates(config);
    };
  }
}
