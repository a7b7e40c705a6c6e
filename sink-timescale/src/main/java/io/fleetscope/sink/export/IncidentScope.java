package io.fleetscope.sink.export;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where and when an incident happened, from its stored versions ({@code alerts}) and its member
 * anomalies: from its first {@code starts_at} to its last {@code ends_at} (now, while it fires), widened
 * by a margin; the scope is its cluster, the nodes and devices it and its members label, and the racks
 * of those nodes (so that a replay has the peers and the rack's power and coolant the analytics compare with).
 */
final class IncidentScope {
  /** An incident's export request without the settings to embed. */
  record Found(Instant from, Instant to, ExportScope scope, boolean firing, int versions, int members) {}

  private final Connection c;

  IncidentScope(Connection c) {
    this.c = c;
  }

  /** The incident's range and scope, or an IllegalArgumentException when no incident has that fingerprint. */
  Found find(String fingerprint, Duration margin, Instant now) throws SQLException {
    Instant start;
    Instant end;
    boolean firing;
    int versions;
    String cluster;
    try (PreparedStatement p = c.prepareStatement("SELECT min(starts_at), max(coalesce(ends_at, ts)), count(*), "
        + "(array_agg(status ORDER BY coalesce(version, 0), ts))[count(*)], min(labels->>'cluster') "
        + "FROM alerts WHERE fingerprint = ?")) {
      p.setString(1, fingerprint);
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        versions = rs.getInt(3);
        if (versions == 0) {
          throw new IllegalArgumentException("no incident with fingerprint " + fingerprint
              + " (the console and `query incidents` list them)");
        }
        start = rs.getTimestamp(1).toInstant();
        end = rs.getTimestamp(2).toInstant();
        firing = "firing".equals(rs.getString(4));
        cluster = rs.getString(5);
      }
    }
    Set<String> nodes = new LinkedHashSet<>();
    Set<String> devices = new LinkedHashSet<>();
    int members;
    String labelled = "SELECT labels->>'node', coalesce(labels->>'device', labels->>'cdu', labels->>'pdu') FROM %s WHERE %s";
    try (PreparedStatement p = c.prepareStatement(String.format(labelled, "alerts", "fingerprint = ?")
        + " UNION " + String.format(labelled, "anomalies", "fingerprint IN "
        + "(SELECT jsonb_array_elements_text(members) FROM alerts WHERE fingerprint = ?)"))) {
      p.setString(1, fingerprint);
      p.setString(2, fingerprint);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          addIfSet(nodes, rs.getString(1));
          addIfSet(devices, rs.getString(2));
        }
      }
    }
    try (PreparedStatement p = c.prepareStatement(
        "SELECT count(DISTINCT m) FROM alerts, jsonb_array_elements_text(members) m WHERE fingerprint = ?")) {
      p.setString(1, fingerprint);
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        members = rs.getInt(1);
      }
    }
    Set<String> racks = new LinkedHashSet<>();
    try (PreparedStatement p = c.prepareStatement("SELECT DISTINCT rack FROM inventory_current WHERE rack IS NOT NULL "
        + "AND id = ANY(?) UNION SELECT labels->>'rack' FROM alerts WHERE fingerprint = ? AND labels->>'rack' IS NOT NULL")) {
      Set<String> ids = new LinkedHashSet<>(nodes);
      ids.addAll(devices);
      p.setArray(1, ScopeResolver.array(c, ids));
      p.setString(2, fingerprint);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          addIfSet(racks, rs.getString(1));
        }
      }
    }
    Instant to = firing ? now : end.plus(margin);
    return new Found(start.minus(margin), to.isAfter(now) ? now : to,
        new ExportScope(cluster == null ? Set.of() : Set.of(cluster), nodes, racks, devices), firing, versions, members);
  }

  private static void addIfSet(Set<String> s, String v) {
    if (v != null && !v.isEmpty()) {
      s.add(v);
    }
  }
}
