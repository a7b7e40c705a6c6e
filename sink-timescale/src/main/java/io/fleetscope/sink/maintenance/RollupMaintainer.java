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
 * writers logged in rollup_invalidations, recomputes the 1-minute buckets they touch (widened to
 * whole minutes and by the reach of the counter deltas) from raw rows, then the 1-hour buckets of
 * the hours they touch from the 1-minute rollup (refresh_*_rollup_* in V005/V010), in one
 * transaction. The cost of a refresh follows the rows written since the last one: widening every
 * range to whole hours, as before, recomputed the hour so far from raw rows every minute, which at
 * 20,000 GPUs took most of a database core. While a source is being written, the minute its newest
 * rows fall in (and anything after it) is held back for a later run, so a live minute is computed
 * once, when it is complete, not once per run while it fills; older rows (a backfill, a replay, a
 * source gone quiet for {@link #SETTLE}) are refreshed to their end. Likewise the 1-hour buckets of
 * the live hour are computed once, after its last minute ({@link #completeHours}): gpu_rollup_1h
 * and rail_rollup_1h hold complete hours while a source is being written. A failed refresh leaves the invalidations in place for
 * the next run. On the community edition it keeps the GPU rollups only ({@link #gpuOnly}); the rail
 * rollups are continuous aggregates there ({@link ContinuousAggregates}).
 */
public final class RollupMaintainer implements Rollups {
  private static final Logger log = LoggerFactory.getLogger(RollupMaintainer.class);
  /** A new sample changes the counter delta of the next one, up to this far later (the lag window of V005). */
  private static final Duration LAG_REACH = Duration.ofMinutes(10);

  /** Rows newer than this (against the database clock) are live: their open minute is still filling. */
  static final Duration SETTLE = Duration.ofMinutes(2);

  /** A half-open time range [from, to). */
  public record Range(Instant from, Instant to) {}

  /**
   * A range a writer logged (its to is the newest sample's ts, inclusive), when, and the one node
   * it is narrowed to (null: every node).
   */
  public record Logged(Range range, Instant loggedAt, String node) {}

  /**
   * What a run refreshes now (every node's rows, and single nodes' rows), what it logs again for a
   * later run, and the minute where the held part starts (null when nothing is held back).
   */
  public record Split(List<Range> due, List<Logged> held, java.util.Map<String, List<Range>> dueByNode, Instant horizon) {}

  /** One source table, its refresh functions, and whether its 1-minute refresh can be narrowed to a node. */
  public record Source(String name, String refresh1m, String refresh1h, boolean byNode) {}

  public static final List<Source> SOURCES = List.of(
      new Source("gpu", "refresh_gpu_rollup_1m", "refresh_gpu_rollup_1h", true),
      new Source("rail", "refresh_rail_rollup_1m", "refresh_rail_rollup_1h", false));

  private final List<Source> sources;

  /** Every source (the Apache edition). */
  public RollupMaintainer() {
    this(SOURCES);
  }

  /** These sources only. */
  public RollupMaintainer(List<Source> sources) {
    this.sources = List.copyOf(sources);
  }

  /** The GPU source only (the community edition, where rail_bw has continuous aggregates). */
  public static RollupMaintainer gpuOnly() {
    return new RollupMaintainer(SOURCES.stream().filter(s -> s.name().equals("gpu")).toList());
  }

  /** Refreshes every source; returns the 1-minute buckets written. */
  @Override
  public long refresh(Connection c) throws SQLException {
    long total = 0;
    for (Source s : sources) {
      total += refresh(c, s);
    }
    return total;
  }

  long refresh(Connection c, Source s) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    long t0 = System.nanoTime();
    try {
      List<Logged> logged = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM rollup_invalidations WHERE source = ? RETURNING from_ts, to_ts, logged_at, node")) {
        p.setString(1, s.name());
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            logged.add(new Logged(new Range(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()),
                rs.getTimestamp(3).toInstant(), s.byNode() ? rs.getString(4) : null));
          }
        }
      }
      if (logged.isEmpty()) {
        c.commit();
        return 0;
      }
      try (PreparedStatement p = c.prepareStatement("SET LOCAL jit = off")) {
        p.execute(); // compiling the refresh's expressions took longer than running them (0.56 s of ~5 s)
      }
      Split split = split(logged, dbNow(c));
      relog(c, s, split.held());
      long buckets = 0;
      Instant horizon = split.horizon();
      for (Range r : before(minuteRanges(split.due()), horizon)) {
        buckets += call(c, s.refresh1m(), r);
      }
      List<Range> all = new ArrayList<>(split.due());
      for (var e : split.dueByNode().entrySet()) {
        for (Range r : widen(e.getValue(), ChronoUnit.MINUTES, Duration.ZERO)) { // the function reaches the next samples
          buckets += call(c, s.refresh1m(), r, e.getKey(), horizon);
        }
        all.addAll(e.getValue());
      }
      List<Range> ranges = completeHours(hourRanges(all), horizon);
      for (Range r : ranges) {
        call(c, s.refresh1h(), r);
      }
      c.commit();
      log.info("rollup refreshed source={} invalidations={} held={} nodes={} ranges={} buckets_1m={} ms={}", s.name(),
          logged.size(), split.held().size(), split.dueByNode().size(), ranges.size(), buckets,
          (System.nanoTime() - t0) / 1_000_000);
      return buckets;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
  }

  /**
   * Splits logged ranges at the start of the minute of the newest logged sample when that sample is
   * live (within {@link #SETTLE} of now): everything before is due, the rest is held (every held range
   * starts at that minute). Older data (a backfill, a replay, a source gone quiet) is all due. Ranges
   * narrowed to a node are due per node.
   */
  public static Split split(List<Logged> logged, Instant now) {
    Instant newest = null;
    for (Logged l : logged) {
      newest = newest == null || l.range().to().isAfter(newest) ? l.range().to() : newest;
    }
    List<Range> due = new ArrayList<>();
    List<Logged> held = new ArrayList<>();
    java.util.TreeMap<String, List<Range>> byNode = new java.util.TreeMap<>();
    Instant horizon = newest == null || newest.isBefore(now.minus(SETTLE)) ? null : newest.truncatedTo(ChronoUnit.MINUTES);
    for (Logged l : logged) {
      Range r = l.range();
      List<Range> to = l.node() == null ? due : byNode.computeIfAbsent(l.node(), k -> new ArrayList<>());
      if (horizon == null || r.to().isBefore(horizon)) {
        to.add(r);
      } else if (!r.from().isBefore(horizon)) {
        held.add(l);
      } else {
        to.add(new Range(r.from(), horizon));
        held.add(new Logged(new Range(horizon, r.to()), l.loggedAt(), l.node()));
      }
    }
    return new Split(due, held, byNode, horizon);
  }

  private static Instant dbNow(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT clock_timestamp()");
         ResultSet rs = p.executeQuery()) {
      rs.next();
      return rs.getTimestamp(1).toInstant();
    }
  }

  private static void relog(Connection c, Source s, List<Logged> held) throws SQLException {
    if (held.isEmpty()) {
      return;
    }
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO rollup_invalidations (source, from_ts, to_ts, logged_at, node) VALUES (?, ?, ?, ?, ?)")) {
      for (Logged l : held) {
        p.setString(1, s.name());
        p.setTimestamp(2, Timestamp.from(l.range().from()));
        p.setTimestamp(3, Timestamp.from(l.range().to()));
        p.setTimestamp(4, Timestamp.from(l.loggedAt()));
        p.setString(5, l.node());
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  private static long call(Connection c, String fn, Range r) throws SQLException {
    return call(c, fn, r, null, null);
  }

  /** With a node: that node's buckets only, reaching its next samples but not past {@code limit} (null: no limit). */
  private static long call(Connection c, String fn, Range r, String node, Instant limit) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + fn + (node == null ? "(?, ?)" : "(?, ?, ?, ?)"))) {
      p.setTimestamp(1, Timestamp.from(r.from()));
      p.setTimestamp(2, Timestamp.from(r.to()));
      if (node != null) {
        p.setString(3, node);
        p.setTimestamp(4, limit == null ? null : Timestamp.from(limit));
      }
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Cuts hour ranges at the start of the live hour (the hour of {@code horizon}; null: nothing is
   * live, every hour is due). The live hour's 1-hour buckets are computed once, when its last minute
   * is refreshed (that minute's range is due only after the horizon has moved into the next hour),
   * instead of from the whole hour so far on every run, which grew to seconds a run near the end of
   * an hour at 20,000 GPUs.
   */
  public static List<Range> completeHours(List<Range> hourRanges, Instant horizon) {
    return before(hourRanges, horizon == null ? null : horizon.truncatedTo(ChronoUnit.HOURS));
  }

  /** The parts of ranges before {@code limit} (null: the ranges as they are). */
  static List<Range> before(List<Range> ranges, Instant limit) {
    if (limit == null) {
      return ranges;
    }
    List<Range> out = new ArrayList<>();
    for (Range r : ranges) {
      if (r.from().isBefore(limit)) {
        out.add(r.to().isAfter(limit) ? new Range(r.from(), limit) : r);
      }
    }
    return out;
  }

  /** Widens ranges to whole hours (reaching the next samples' deltas) and merges overlapping ones. */
  public static List<Range> hourRanges(List<Range> logged) {
    return widen(logged, ChronoUnit.HOURS, LAG_REACH);
  }

  /** Widens ranges to whole minutes (reaching the next samples' deltas) and merges overlapping ones. */
  public static List<Range> minuteRanges(List<Range> logged) {
    return widen(logged, ChronoUnit.MINUTES, LAG_REACH);
  }

  private static List<Range> widen(List<Range> logged, ChronoUnit unit, Duration reach) {
    List<Range> widened = new ArrayList<>();
    for (Range r : logged) {
      Instant from = r.from().truncatedTo(unit);
      Instant to = r.to().plus(reach).truncatedTo(unit).plus(1, unit);
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
