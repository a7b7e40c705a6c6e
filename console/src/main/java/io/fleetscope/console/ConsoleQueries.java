package io.fleetscope.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;

/**
 * The console's read queries over the sink's tables. Every parameter is bound; every answer is a JSON
 * array of row objects (timestamps as ISO-8601 strings, jsonb columns as JSON).
 */
public final class ConsoleQueries {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private ConsoleQueries() {}

  /** Fleet at a glance: nodes and GPUs reporting, hottest GPU, firing incidents and anomalies. */
  public static ObjectNode summary(Connection c, Duration staleAfter) throws SQLException {
    ObjectNode out = F.objectNode();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT count(DISTINCT node) AS nodes, count(DISTINCT (node, gpu)) AS gpus, max(temp_c) AS max_temp_c,"
            + " max(ts) AS last_sample FROM gpu WHERE ts > now() - make_interval(secs => ?)")) {
      ps.setDouble(1, staleAfter.toMillis() / 1000.0);
      copyFirstRow(ps, out);
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT count(*) AS firing_incidents FROM (SELECT DISTINCT ON (fingerprint) status FROM alerts"
            + " ORDER BY fingerprint, ts DESC, version DESC NULLS LAST) s WHERE status = 'firing'")) {
      copyFirstRow(ps, out);
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT count(*) FILTER (WHERE status = 'firing') AS anomalies_fired_1h,"
            + " count(*) FILTER (WHERE status = 'resolved') AS anomalies_resolved_1h"
            + " FROM anomalies WHERE ts > now() - interval '1 hour'")) {
      copyFirstRow(ps, out);
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT count(*) AS dead_letters_1h FROM dead_letters WHERE ts > now() - interval '1 hour'")) {
      copyFirstRow(ps, out);
    }
    return out;
  }

  /** Incidents whose latest state is firing, newest first, from the alerts table. */
  public static ArrayNode activeIncidents(Connection c) throws SQLException {
    return rows(c, "SELECT * FROM (SELECT DISTINCT ON (fingerprint) fingerprint, status, labels, annotations,"
        + " starts_at, ends_at, members, blast_radius, root_cause, version, ts FROM alerts"
        + " ORDER BY fingerprint, ts DESC, version DESC NULLS LAST) s WHERE status = 'firing' ORDER BY starts_at DESC LIMIT 200");
  }

  /** Anomaly state changes of the last {@code minutes}. */
  public static ArrayNode recentAnomalies(Connection c, int minutes, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT ts, fingerprint, status, labels->>'alertname' AS alertname, labels->>'severity' AS severity,"
            + " labels, annotations->>'summary' AS summary, starts_at, ends_at, value, source FROM anomalies"
            + " WHERE ts > now() - make_interval(mins => ?) ORDER BY ts DESC LIMIT ?")) {
      ps.setInt(1, minutes);
      ps.setInt(2, limit);
      return rows(ps);
    }
  }

  /** Hottest GPUs by their latest sample in the stale window. */
  public static ArrayNode hottestGpus(Connection c, Duration staleAfter, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT * FROM (SELECT DISTINCT ON (node, gpu) node, gpu, model, ts, temp_c, mem_temp_c, power_w,"
            + " power_limit_w, throttle_reasons FROM gpu WHERE ts > now() - make_interval(secs => ?)"
            + " ORDER BY node, gpu, ts DESC) s WHERE temp_c IS NOT NULL ORDER BY temp_c DESC LIMIT ?")) {
      ps.setDouble(1, staleAfter.toMillis() / 1000.0);
      ps.setInt(2, limit);
      return rows(ps);
    }
  }

  /** Latest bandwidth record of every rail. */
  public static ArrayNode rails(Connection c) throws SQLException {
    return rows(c, "SELECT DISTINCT ON (cluster, rail) cluster, rail, ts, tx_gbps, rx_gbps, line_rate_gbps,"
        + " utilisation, ports_up, ports_total, imbalance, degraded_ports FROM rail_bw"
        + " WHERE ts > now() - interval '10 minutes' ORDER BY cluster, rail, ts DESC");
  }

  /**
   * NVLink throughput of every node over the last 10 minutes (the window of {@link #rails}), in Gbit/s
   * like the rails: the SQL function nvlink_node_bandwidth (migration V025), busiest nodes first.
   */
  public static ArrayNode nvlinkNodes(Connection c) throws SQLException {
    return rows(c, "SELECT cluster, node, links, nvlink_tx_gbps, nvlink_rx_gbps, last_ts"
        + " FROM nvlink_node_bandwidth(now() - interval '10 minutes', now() + interval '1 minute')"
        + " ORDER BY coalesce(nvlink_tx_gbps, 0) + coalesce(nvlink_rx_gbps, 0) DESC, cluster, node");
  }

  /** Highest thermal-risk GPUs by their latest score. */
  public static ArrayNode thermalRisk(Connection c, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT * FROM (SELECT DISTINCT ON (node, gpu) node, gpu, rack, ts, score, level, seconds_to_throttle,"
            + " driver, temp_c, headroom_c FROM thermal_risk WHERE ts > now() - interval '10 minutes'"
            + " ORDER BY node, gpu, ts DESC) s ORDER BY score DESC LIMIT ?")) {
      ps.setInt(1, limit);
      return rows(ps);
    }
  }

  static ArrayNode rows(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      return rows(ps);
    }
  }

  static ArrayNode rows(PreparedStatement ps) throws SQLException {
    ArrayNode out = F.arrayNode();
    try (ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        ObjectNode row = F.objectNode();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.set(md.getColumnLabel(i), value(rs, i, md));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static void copyFirstRow(PreparedStatement ps, ObjectNode out) throws SQLException {
    ArrayNode r = rows(ps);
    if (!r.isEmpty()) {
      out.setAll((ObjectNode) r.get(0));
    }
  }

  private static JsonNode value(ResultSet rs, int i, ResultSetMetaData md) throws SQLException {
    Object o = rs.getObject(i);
    if (o == null) {
      return F.nullNode();
    }
    String typeName = md.getColumnTypeName(i);
    if ("jsonb".equals(typeName) || "json".equals(typeName)) {
      try {
        return JSON.readTree(o.toString());
      } catch (Exception e) {
        return F.textNode(o.toString());
      }
    }
    switch (md.getColumnType(i)) {
      case Types.TIMESTAMP:
      case Types.TIMESTAMP_WITH_TIMEZONE:
        return F.textNode(rs.getTimestamp(i).toInstant().toString());
      case Types.BIGINT:
      case Types.INTEGER:
      case Types.SMALLINT:
        return F.numberNode(rs.getLong(i));
      case Types.DOUBLE:
      case Types.REAL:
      case Types.NUMERIC:
      case Types.FLOAT:
        return F.numberNode(rs.getDouble(i));
      case Types.BOOLEAN:
      case Types.BIT:
        return F.booleanNode(rs.getBoolean(i));
      default:
        return o instanceof Timestamp ? F.textNode(((Timestamp) o).toInstant().toString()) : F.textNode(o.toString());
    }
  }
}
