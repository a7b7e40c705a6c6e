package io.fleetscope.sink.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the 1-minute and 1-hour rollups of gpu and rail_bw up to date: takes the time ranges the
 * writers logged in rollup_invalidations, widens them to whole hours, and recomputes exactly
 * those buckets (refresh_*_rollup_* in V005) in one transaction. A failed refresh leaves the
 * invalidations in place for the next run. Works the same on both TimescaleDB editions.
 */
public final class RollupMaintainer {
  private static final Logger log = LoggerFactory.getLogger(RollupMaintainer.class);
  /** A new sample changes the counter delta of the next one, up to this far later (the lag window of V005). */
  private static final Duration LAG_REACH = Duration.ofMinutes(10);

  /** A half-open time range [from, to). */
  public record Range(Instant from, Instant to) {}

  /** One source table and its refresh functions. */
  public record Source(String name, String refresh1m, String refresh1h) {}

  public static final List<Source> SOURCES = List.of(
      new Source("gpu", "refresh_gpu_rollup_1m", "refresh_gpu_rollup_1h"),
      new Source("rail", "refresh_rail_rollup_1m", "refresh_rail_rollup_1h"));

  /** Refreshes every source; returns the 1-minute buckets written. */
  public long refresh(Connection c) throws SQLException {
    long total = 0;
    for (Source s : SOURCES) {
      total += refresh(c, s);
    }
    return total;
  }

  long refresh(Connection c, Source s) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    long t0 = System.nanoTime();
    try {
      List<Range> logged = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM rollup_invalidations WHERE source = ? RETURNING from_ts, to_ts")) {
        p.setString(1, s.name());
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            logged.add(new Range(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()));
          }
        }
      }
      if (logged.isEmpty()) {
        c.commit();
        return 0;
      }
      long buckets = 0;
      List<Range> ranges = hourRanges(logged);
      for (Range r : ranges) {
        buckets += call(c, s.refresh1m(), r);
        call(c, s.refresh1h(), r);
      }
      c.commit();
      log.info("rollup refreshed source={} invalidations={} ranges={} buckets_1m={} ms={}", s.name(), logged.size(),
          ranges.size(), buckets, (System.nanoTime() - t0) / 1_000_000);
      return buckets;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
  }

  private static long call(Connection c, String fn, Range r) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + fn + "(?, ?)")) {
      p.setTimestamp(1, Timestamp.from(r.from()));
      p.setTimestamp(2, Timestamp.from(r.to()));
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Widens ranges to whole hours (reaching the next samples' deltas) and merges overlapping ones. */
  public static List<Range> hourRanges(List<Range> logged) {
    List<Range> widened = new ArrayList<>();
    for (Range r : logged) {
      Instant from = r.from().truncatedTo(ChronoUnit.HOURS);
      Instant to = r.to().plus(LAG_REACH).truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);
      widened.add(new Range(from, to));
    }
    widened.sort(Comparator.comparing(Range::from));
    List<Range> merged = new ArrayList<>();
    for (Range r : widened) {
      if (!merged.isEmpty() && !r.from().isAfter(merged.get(merged.size() - 1).to())) {
        Range last = merged.remove(merged.size() - 1);
        merged.add(new Range(last.from(), r.to().isAfter(last.to()) ? r.to() : last.to()));
      } else {
        merged.add(r);
      }
    }
    return merged;
  }
}
