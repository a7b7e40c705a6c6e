package io.fleetscope.sink.maintenance;

import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.write.TableSpec;
import io.fleetscope.sink.write.Tables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention: raw telemetry 14 days, events 400 days, rollups 400 days, alerts kept (defaults, see
 * {@link SinkConfig}). On the Apache edition the sink runs {@code drop_chunks} on a schedule; on
 * the community edition it installs TimescaleDB retention policies once at start (CommunityEditionIT).
 * drop_chunks removes whole chunks whose every row is older than the window, never a newer row.
 */
public final class RetentionJob {
  private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

  private final Map<String, Duration> windows;

  public RetentionJob(SinkConfig c) {
    this.windows = windows(c);
  }

  /** Table -> how long its rows are kept. */
  public static Map<String, Duration> windows(SinkConfig c) {
    Map<String, Duration> w = new LinkedHashMap<>();
    for (TableSpec s : Tables.all().values()) {
      switch (s.retention()) {
        case RAW -> w.put(s.writeTable(), c.days(SinkConfig.RAW_DAYS));
        case EVENTS -> w.put(s.writeTable(), c.days(SinkConfig.EVENTS_DAYS));
        case KEPT -> { }
      }
    }
    for (String t : new String[] {"gpu_rollup_1m", "gpu_rollup_1h", "rail_rollup_1m", "rail_rollup_1h"}) {
      w.put(t, c.days(SinkConfig.ROLLUP_DAYS));
    }
    return w;
  }

  public Map<String, Duration> windows() {
    return windows;
  }

  /**
   * Apache edition: drops chunks older than each table's window, as of {@code now}, through
   * {@code fleetscope_drop_chunks} (V009), so a fleetscope_writer member that owns no table may
   * run it. Returns chunks dropped per table.
   */
  public Map<String, Integer> dropExpired(Connection c, Instant now) throws SQLException {
    Map<String, Integer> dropped = new LinkedHashMap<>();
    for (Map.Entry<String, Duration> e : windows.entrySet()) {
      long t0 = System.nanoTime();
      int n = 0;
      try (PreparedStatement p = c.prepareStatement("SELECT fleetscope_drop_chunks(?::regclass, ?::timestamptz)")) {
        p.setString(1, e.getKey());
        p.setTimestamp(2, Timestamp.from(now.minus(e.getValue())));
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          n = rs.getInt(1);
        }
      }
      dropped.put(e.getKey(), n);
      if (n > 0) {
        log.info("retention dropped table={} chunks={} older_than_days={} ms={}", e.getKey(), n, e.getValue().toDays(),
            (System.nanoTime() - t0) / 1_000_000);
      }
    }
    return dropped;
  }

  /** Community edition: one TimescaleDB retention policy per table (replaced when the window changed). */
  public void installPolicies(Connection c) throws SQLException {
    for (Map.Entry<String, Duration> e : windows.entrySet()) {
      try (PreparedStatement rm = c.prepareStatement("SELECT remove_retention_policy(?::regclass, if_exists => true)");
           PreparedStatement add = c.prepareStatement(
               "SELECT add_retention_policy(?::regclass, drop_after => make_interval(days => ?))")) {
        rm.setString(1, e.getKey());
        rm.execute();
        add.setString(1, e.getKey());
        add.setInt(2, Math.toIntExact(e.getValue().toDays()));
        add.execute();
      }
      log.info("retention policy table={} drop_after_days={}", e.getKey(), e.getValue().toDays());
    }
  }

  /** What the sink does at start for this edition. */
  public static boolean scheduledBySink(Edition e) {
    return e == Edition.APACHE;
  }
}
