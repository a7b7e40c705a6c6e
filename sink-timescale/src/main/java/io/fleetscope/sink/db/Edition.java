package io.fleetscope.sink.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The TimescaleDB edition, from {@code SHOW timescaledb.license}: {@code apache} (hypertables,
 * time_bucket, drop_chunks) or {@code timescale} (community: adds compression, continuous
 * aggregates and policies).
 */
public enum Edition {
  APACHE("apache"),
  COMMUNITY("community");

  private final String migrationSuffix;

  Edition(String migrationSuffix) {
    this.migrationSuffix = migrationSuffix;
  }

  /** Migration files named {@code V…__name.<suffix>.sql} apply only to this edition. */
  public String migrationSuffix() {
    return migrationSuffix;
  }

  public static Edition fromLicense(String license) {
    if (license == null) {
      throw new IllegalArgumentException("timescaledb.license is not set: is the timescaledb extension loaded?");
    }
    return switch (license.trim().toLowerCase()) {
      case "apache" -> APACHE;
      case "timescale" -> COMMUNITY;
      default -> throw new IllegalArgumentException("unknown timescaledb.license '" + license + "' (expected apache or timescale)");
    };
  }

  /** Reads the license; the extension must exist in the database (V001 creates it). */
  public static Edition detect(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW timescaledb.license")) {
      rs.next();
      return fromLicense(rs.getString(1));
    }
  }
}
