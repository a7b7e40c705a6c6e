package io.fleetscope.sink.maintenance;

import io.fleetscope.sink.SinkConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Community edition: one TimescaleDB compression policy per relation that has compression enabled
 * (the hypertables of V008, the continuous aggregates of V011), read from the catalog: rollups
 * after {@code compression.rollup_after_days}, everything else after
 * {@code compression.raw_after_days}. Installed at start, replaced when the setting changed.
 */
public final class CompressionPolicies {
  private static final Logger log = LoggerFactory.getLogger(CompressionPolicies.class);

  private final Duration raw;
  private final Duration rollup;

  public CompressionPolicies(SinkConfig c) {
    this.raw = c.days(SinkConfig.COMPRESS_RAW_DAYS);
    this.rollup = c.days(SinkConfig.COMPRESS_ROLLUP_DAYS);
  }

  /** The age after which a relation's chunks are compressed: rollups are kept open longer. */
  public Duration after(String relation) {
    return relation.contains("_rollup_") ? rollup : raw;
  }

  /** Relation -> compress after, for every relation with compression enabled in this database. */
  public Map<String, Duration> plan(Connection c) throws SQLException {
    Map<String, Duration> out = new LinkedHashMap<>();
    try (PreparedStatement p = c.prepareStatement(
        "SELECT hypertable_name FROM timescaledb_information.hypertables WHERE hypertable_schema = 'public' AND compression_enabled "
            + "UNION ALL SELECT view_name FROM timescaledb_information.continuous_aggregates WHERE view_schema = 'public' AND compression_enabled "
            + "ORDER BY 1");
         ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), after(rs.getString(1)));
      }
    }
    return out;
  }

  public Map<String, Duration> install(Connection c) throws SQLException {
    Map<String, Duration> plan = plan(c);
    for (Map.Entry<String, Duration> e : plan.entrySet()) {
      try (PreparedStatement rm = c.prepareStatement("SELECT remove_compression_policy(?::regclass, if_exists => true)");
           PreparedStatement add = c.prepareStatement(
               "SELECT add_compression_policy(?::regclass, compress_after => make_interval(days => ?))")) {
        rm.setString(1, e.getKey());
        rm.execute();
        add.setString(1, e.getKey());
        add.setInt(2, Math.toIntExact(e.getValue().toDays()));
        add.execute();
      }
      log.info("compression policy table={} after_days={}", e.getKey(), e.getValue().toDays());
    }
    return plan;
  }
}
