package io.fleetscope.sink.maintenance;

import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.maintenance.RollupMaintainer.Range;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rollups on the community edition. rail_rollup_1m and rail_rollup_1h are continuous
 * aggregates (V011; the hour is computed from the minute): at start {@link #installPolicies} adds
 * TimescaleDB refresh policies over the last {@code rollup.policy_window_hours}, which keep recent
 * buckets up to date without the sink; every run {@link #refresh} also refreshes the ranges the
 * writers logged for rail_bw (so rows older than the policy window, a backfill or a replay, reach
 * the aggregates too), then lets {@link RollupMaintainer#gpuOnly} keep the GPU rollups.
 */
public final class ContinuousAggregates implements Rollups {
  private static final Logger log = LoggerFactory.getLogger(ContinuousAggregates.class);
  public static final String RAIL_1M = "rail_rollup_1m";
  public static final String RAIL_1H = "rail_rollup_1h";

  private final Duration policyWindow;
  private final RollupMaintainer gpu = RollupMaintainer.gpuOnly();

  public ContinuousAggregates(SinkConfig config) {
    this.policyWindow = config.hours(SinkConfig.ROLLUP_POLICY_HOURS);
  }

  /** One refresh policy per aggregate, replaced when the settings changed. */
  public void installPolicies(Connection c) throws SQLException {
    policy(c, RAIL_1M, Duration.ofMinutes(1), Duration.ofMinutes(1));
    policy(c, RAIL_1H, Duration.ofHours(1), Duration.ofMinutes(30));
  }

  private void policy(Connection c, String view, Duration endOffset, Duration every) throws SQLException {
    try (PreparedStatement rm = c.prepareStatement("SELECT remove_continuous_aggregate_policy(?::regclass, if_exists => true)");
         PreparedStatement add = c.prepareStatement("SELECT add_continuous_aggregate_policy(?::regclass, "
             + "start_offset => make_interval(hours => ?), end_offset => make_interval(secs => ?), "
             + "schedule_interval => make_interval(secs => ?))")) {
      rm.setString(1, view);
      rm.execute();
      add.setString(1, view);
      add.setInt(2, Math.toIntExact(policyWindow.toHours()));
      add.setLong(3, endOffset.toSeconds());
      add.setLong(4, every.toSeconds());
      add.execute();
    }
    log.info("rollup policy view={} window_hours={} end_offset_s={} every_s={}", view, policyWindow.toHours(),
        endOffset.toSeconds(), every.toSeconds());
  }

  @Override
  public long refresh(Connection c) throws SQLException {
    refreshLoggedRail(c);
    return gpu.refresh(c);
  }

  /**
   * Takes the ranges logged for rail_bw and refreshes the aggregates over them: the minutes they
   * touch, then the hours. refresh_continuous_aggregate runs outside a transaction, so the logged
   * ranges are taken first and logged again if a refresh fails.
   */
  void refreshLoggedRail(Connection c) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(true);
    try {
      List<Range> logged = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM rollup_invalidations WHERE source = 'rail' RETURNING from_ts, to_ts")) {
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            logged.add(new Range(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()));
          }
        }
      }
      if (logged.isEmpty()) {
        return;
      }
      long t0 = System.nanoTime();
      try {
        List<Range> minutes = RollupMaintainer.minuteRanges(logged);
        List<Range> hours = RollupMaintainer.hourRanges(logged);
        for (Range r : minutes) {
          call(c, RAIL_1M, r);
        }
        for (Range r : hours) {
          call(c, RAIL_1H, r);
        }
        log.info("rollup refreshed source=rail invalidations={} ranges_1m={} ranges_1h={} ms={}", logged.size(),
            minutes.size(), hours.size(), (System.nanoTime() - t0) / 1_000_000);
      } catch (SQLException | RuntimeException e) {
        relog(c, logged);
        throw e;
      }
    } finally {
      c.setAutoCommit(auto);
    }
  }

  private static void call(Connection c, String view, Range r) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("CALL refresh_continuous_aggregate(?::regclass, ?::timestamptz, ?::timestamptz)")) {
      p.setString(1, view);
      p.setTimestamp(2, Timestamp.from(r.from()));
      p.setTimestamp(3, Timestamp.from(r.to()));
      p.execute();
    }
  }

  private static void relog(Connection c, List<Range> logged) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO rollup_invalidations (source, from_ts, to_ts) VALUES ('rail', ?, ?)")) {
      for (Range r : logged) {
        p.setTimestamp(1, Timestamp.from(r.from()));
        p.setTimestamp(2, Timestamp.from(r.to()));
        p.addBatch();
      }
      p.executeBatch();
    }
  }
}
