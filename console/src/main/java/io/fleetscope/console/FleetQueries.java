package io.fleetscope.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The console's drill-down queries: the heatmap's cells, a GPU's history, the rails over time,
 * incidents with their timelines and checkpoint SLOs. Every parameter is bound; a series is
 * bucketed in the database ({@link TimeRange#bucketSeconds()}) and read from the raw hypertable or
 * a rollup ({@link TimeRange#resolution()}), so an answer stays small whatever the range.
 */
public final class FleetQueries {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private FleetQueries() {}

  /** No such thing (an unknown node, GPU or incident): answered 404. */
  public static final class NotFound extends RuntimeException {
    NotFound(String m) {
      super(m);
    }
  }

  /**
   * Every GPU of the current inventory with its latest sample within {@code window} and its latest
   * thermal-risk score within 10 minutes: one index probe per GPU (natural keys lead with node, gpu).
   */
  public static List<Heatmap.Cell> heatmapCells(Connection c, Duration window) throws SQLException {
    String sql = "WITH inv AS ("
        + " SELECT coalesce(i.\"row\", '') AS row_name, coalesce(i.rack, 'unknown') AS rack, i.id AS node,"
        + " (g ->> 'index')::int AS gpu, (g ->> 'slowdown_temp_c')::float8 AS slowdown_c"
        + " FROM inventory_current i CROSS JOIN LATERAL jsonb_array_elements(i.gpus) g WHERE i.kind = 'node')"
        + " SELECT inv.row_name, inv.rack, inv.node, inv.gpu, s.temp_c, inv.slowdown_c, r.headroom_c, s.throttle_reasons,"
        + " s.ecc_sbe_total, s.ecc_dbe_total, s.row_remap_pending, s.row_remap_failure, r.score, r.level FROM inv"
        + " LEFT JOIN LATERAL (SELECT temp_c, throttle_reasons, ecc_sbe_total, ecc_dbe_total, row_remap_pending,"
        + " row_remap_failure FROM gpu WHERE gpu.node = inv.node AND gpu.gpu = inv.gpu"
        + " AND gpu.ts > now() - make_interval(secs => ?) ORDER BY gpu.ts DESC LIMIT 1) s ON true"
        + " LEFT JOIN LATERAL (SELECT score, level, headroom_c FROM thermal_risk t WHERE t.node = inv.node AND t.gpu = inv.gpu"
        + " AND t.ts > now() - interval '10 minutes' ORDER BY t.ts DESC LIMIT 1) r ON true"
        + " ORDER BY inv.row_name, inv.rack, inv.node, inv.gpu";
    List<Heatmap.Cell> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setDouble(1, window.toMillis() / 1000.0);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Heatmap.Cell(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), dbl(rs, 5), dbl(rs, 6),
              dbl(rs, 7), lng(rs, 8), lng(rs, 9), lng(rs, 10), bool(rs, 11), bool(rs, 12), dbl(rs, 13), rs.getString(14)));
        }
      }
    }
    return out;
  }

  /** The GPU as the inventory and its latest sample know it; {@link NotFound} when neither knows it. */
  public static ObjectNode gpuInfo(Connection c, String node, int gpu) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT i.cluster, i.rack, i.\"row\", g ->> 'uuid' AS uuid, g ->> 'model' AS model,"
            + " (g ->> 'slowdown_temp_c')::float8 AS slowdown_temp_c, (g ->> 'shutdown_temp_c')::float8 AS shutdown_temp_c,"
            + " (g ->> 'mem_max_temp_c')::float8 AS mem_max_temp_c, (g ->> 'tdp_w')::float8 AS tdp_w"
            + " FROM inventory_current i CROSS JOIN LATERAL jsonb_array_elements(i.gpus) g"
            + " WHERE i.kind = 'node' AND i.id = ? AND (g ->> 'index')::int = ?")) {
      ps.setString(1, node);
      ps.setInt(2, gpu);
      ArrayNode r = ConsoleQueries.rows(ps);
      if (!r.isEmpty()) {
        return ((ObjectNode) r.get(0)).put("node", node).put("gpu", gpu);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT cluster, uuid, model, ts AS last_sample FROM gpu WHERE node = ? AND gpu = ? ORDER BY ts DESC LIMIT 1")) {
      ps.setString(1, node);
      ps.setInt(2, gpu);
      ArrayNode r = ConsoleQueries.rows(ps);
      if (r.isEmpty()) {
        throw new NotFound("no GPU " + gpu + " on node '" + TimeRange.shorten(node) + "' in the inventory or the samples");
      }
      return ((ObjectNode) r.get(0)).put("node", node).put("gpu", gpu);
    }
  }

  /**
   * One GPU over a range, bucketed: temperature, HBM temperature, power, clocks, the throttled share
   * of each bucket, ECC counts (raw: the counters; rollups: the increase per bucket) and the union of
   * the throttle reasons seen; with the GPU's anomalies in the range.
   */
  public static ObjectNode gpuHistory(Connection c, String node, int gpu, TimeRange range) throws SQLException {
    ObjectNode out = F.objectNode();
    out.set("gpu", gpuInfo(c, node, gpu));
    putRange(out, range);
    String sql = switch (range.resolution()) {
      case RAW -> "SELECT time_bucket(make_interval(secs => ?), ts) AS t, avg(temp_c) AS temp_c, max(mem_temp_c) AS mem_temp_c,"
          + " avg(power_w) AS power_w, max(power_limit_w) AS power_limit_w, avg(sm_clock_mhz) AS sm_clock_mhz,"
          + " avg(mem_clock_mhz) AS mem_clock_mhz,"
          + " avg(CASE WHEN throttle_reasons & 236 <> 0 THEN 1.0 ELSE 0.0 END) AS throttled_share,"
          + " avg(CASE WHEN throttle_reasons & 104 <> 0 THEN 1.0 ELSE 0.0 END) AS thermal_share,"
          + " bit_or(throttle_reasons) AS throttle_reasons, max(ecc_sbe_total) AS ecc_sbe, max(ecc_dbe_total) AS ecc_dbe"
          + " FROM gpu WHERE node = ? AND gpu = ? AND ts >= ? AND ts < ? GROUP BY t ORDER BY t";
      default -> "SELECT time_bucket(make_interval(secs => ?), bucket) AS t, avg(temp_c_avg) AS temp_c,"
          + " max(mem_temp_c_max) AS mem_temp_c, avg(power_w_avg) AS power_w, NULL::float8 AS power_limit_w,"
          + " avg(sm_clock_mhz_avg) AS sm_clock_mhz, NULL::float8 AS mem_clock_mhz,"
          + " sum(throttled_samples)::float8 / nullif(sum(samples), 0) AS throttled_share,"
          + " sum(thermal_throttled_samples)::float8 / nullif(sum(samples), 0) AS thermal_share,"
          + " NULL::bigint AS throttle_reasons, sum(ecc_sbe_increase) AS ecc_sbe, sum(ecc_dbe_increase) AS ecc_dbe"
          + " FROM " + (range.resolution() == TimeRange.Resolution.MINUTE ? "gpu_rollup_1m" : "gpu_rollup_1h")
          + " WHERE node = ? AND gpu = ? AND bucket >= ? AND bucket < ? GROUP BY t ORDER BY t";
    };
    ArrayNode series;
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setDouble(1, range.bucketSeconds());
      ps.setString(2, node);
      ps.setInt(3, gpu);
      ps.setTimestamp(4, Timestamp.from(range.from()));
      ps.setTimestamp(5, Timestamp.from(range.to()));
      series = ConsoleQueries.rows(ps);
    }
    out.put("ecc", range.resolution() == TimeRange.Resolution.RAW ? "counter" : "increase per bucket");
    long seen = 0;
    for (var p : series) {
      seen |= p.path("throttle_reasons").asLong(0);
    }
    out.set("throttle_reasons_seen", ThrottleReasons.names(seen));
    out.set("series", series);
    out.set("mig_devices", migDevices(c, node, gpu, range));
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT ts, fingerprint, status, labels ->> 'alertname' AS alertname, labels ->> 'severity' AS severity,"
            + " annotations ->> 'summary' AS summary, value FROM anomalies"
            + " WHERE labels @> jsonb_build_object('node', ?::text) AND (labels ->> 'gpu' IS NULL OR labels ->> 'gpu' = ?)"
            + " AND ts >= ? AND ts < ? ORDER BY ts LIMIT 500")) {
      ps.setString(1, node);
      ps.setString(2, Integer.toString(gpu));
      ps.setTimestamp(3, Timestamp.from(range.from()));
      ps.setTimestamp(4, Timestamp.from(range.to()));
      out.set("anomalies", ConsoleQueries.rows(ps));
    }
    return out;
  }

  /**
   * The MIG devices of a GPU in MIG mode, as last sampled in the range (one row per GPU and compute
   * instance, by GPU instance): profile, UUID, memory, utilization where reported, SRAM ECC; empty
   * when the GPU was not in MIG mode in the range.
   */
  static ArrayNode migDevices(Connection c, String node, int gpu, TimeRange range) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT DISTINCT ON (gpu_instance_id, compute_instance_id) gpu_instance_id, compute_instance_id, mig_device, profile,"
            + " uuid, sm_count, mem_used_mib, mem_total_mib, util_pct, ecc_sram_uncorrectable, source, ts"
            + " FROM gpu_mig WHERE node = ? AND gpu = ? AND ts >= ? AND ts < ?"
            + " ORDER BY gpu_instance_id, compute_instance_id, ts DESC")) {
      ps.setString(1, node);
      ps.setInt(2, gpu);
      ps.setTimestamp(3, Timestamp.from(range.from()));
      ps.setTimestamp(4, Timestamp.from(range.to()));
      return ConsoleQueries.rows(ps);
    }
  }

  /** Every rail over a range, bucketed: bandwidth, utilisation, the fewest ports up and the most ports down in each bucket. */
  public static ObjectNode railHistory(Connection c, TimeRange range) throws SQLException {
    ObjectNode out = F.objectNode();
    putRange(out, range);
    String sql = switch (range.resolution()) {
      case RAW -> "SELECT time_bucket(make_interval(secs => ?), ts) AS t, cluster, rail, avg(tx_gbps) AS tx_gbps,"
          + " avg(rx_gbps) AS rx_gbps, max(line_rate_gbps) AS line_rate_gbps, avg(utilisation) AS utilisation,"
          + " min(ports_up) AS ports_up, max(ports_total) AS ports_total, max(ports_total - ports_up) AS ports_down,"
          + " (SELECT jsonb_agg(DISTINCT d) FROM rail_bw b2, jsonb_array_elements(b2.degraded_ports) d"
          + "   WHERE b2.cluster = b.cluster AND b2.rail = b.rail AND b2.ts >= min(b.ts) AND b2.ts <= max(b.ts)) AS degraded_ports"
          + " FROM rail_bw b WHERE ts >= ? AND ts < ? GROUP BY t, cluster, rail ORDER BY cluster, rail, t";
      default -> "SELECT time_bucket(make_interval(secs => ?), bucket) AS t, cluster, rail, avg(tx_gbps_avg) AS tx_gbps,"
          + " avg(rx_gbps_avg) AS rx_gbps, max(line_rate_gbps) AS line_rate_gbps, avg(utilisation_avg) AS utilisation,"
          + " min(ports_up_min) AS ports_up, max(ports_total_max) AS ports_total,"
          + " max(ports_total_max - ports_up_min) AS ports_down, NULL::jsonb AS degraded_ports"
          + " FROM " + (range.resolution() == TimeRange.Resolution.MINUTE ? "rail_rollup_1m" : "rail_rollup_1h")
          + " WHERE bucket >= ? AND bucket < ? GROUP BY t, cluster, rail ORDER BY cluster, rail, t";
    };
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setDouble(1, range.bucketSeconds());
      ps.setTimestamp(2, Timestamp.from(range.from()));
      ps.setTimestamp(3, Timestamp.from(range.to()));
      out.set("series", ConsoleQueries.rows(ps));
    }
    return out;
  }

  /**
   * Incidents active at some time in the range, by their state at its end: firing ones first, then
   * those that ended in the range; newest first, with their runbook link and blast radius.
   */
  public static ArrayNode incidents(Connection c, TimeRange range, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT * FROM (SELECT DISTINCT ON (fingerprint) fingerprint, status, labels ->> 'alertname' AS alertname,"
            + " labels ->> 'severity' AS severity, labels, annotations ->> 'summary' AS summary,"
            + " annotations ->> 'runbook_url' AS runbook_url, starts_at, ends_at, jsonb_array_length(members) AS member_count,"
            + " blast_radius, root_cause, version, jobs, annotations ->> 'jobs' AS jobs_line, ts AS updated FROM alerts WHERE ts <= ?"
            + " ORDER BY fingerprint, ts DESC, version DESC NULLS LAST) s"
            + " WHERE status = 'firing' OR coalesce(ends_at, updated) >= ?"
            + " ORDER BY (status = 'firing') DESC, starts_at DESC LIMIT ?")) {
      ps.setTimestamp(1, Timestamp.from(range.to()));
      ps.setTimestamp(2, Timestamp.from(range.from()));
      ps.setInt(3, limit);
      return ConsoleQueries.rows(ps);
    }
  }

  /**
   * One incident: its latest state and its timeline (every version of the alert, which is what the
   * correlator notified, and every state change of its member anomalies as they joined and resolved).
   */
  public static ObjectNode incident(Connection c, String fingerprint) throws SQLException {
    ObjectNode out = F.objectNode();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT fingerprint, status, labels, annotations, annotations ->> 'runbook_url' AS runbook_url, starts_at, ends_at,"
            + " members, blast_radius, root_cause, version, jobs, ts AS updated FROM alerts WHERE fingerprint = ?"
            + " ORDER BY ts DESC, version DESC NULLS LAST LIMIT 1")) {
      ps.setString(1, fingerprint);
      ArrayNode r = ConsoleQueries.rows(ps);
      if (r.isEmpty()) {
        throw new NotFound("no incident with fingerprint '" + TimeRange.shorten(fingerprint) + "'");
      }
      out.set("incident", r.get(0));
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT ts, kind, fingerprint, status, alertname, severity, summary, version, detail FROM v_incident_timeline"
            + " WHERE incident = ? ORDER BY ts, kind, version NULLS LAST LIMIT 2000")) {
      ps.setString(1, fingerprint);
      out.set("timeline", ConsoleQueries.rows(ps));
    }
    return out;
  }

  /**
   * A training job's incidents that started in the range, newest first, each with what it cost the job
   * (the view v_job_incidents: GPUs of the job it touched, job size, last checkpoint, GPU-hours at risk),
   * and the totals.
   */
  public static ObjectNode jobIncidents(Connection c, String job, TimeRange range) throws SQLException {
    ObjectNode out = F.objectNode();
    out.put("job", job);
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT incident AS fingerprint, cluster, alertname, severity, status, starts_at, ends_at, first_named, gpus_affected,"
            + " job_gpus, last_checkpoint, extract(epoch FROM first_named - last_checkpoint) AS checkpoint_age_s,"
            + " gpu_hours_at_risk, summary FROM v_job_incidents WHERE job = ? AND starts_at >= ? AND starts_at < ?"
            + " ORDER BY starts_at DESC, incident LIMIT 500")) {
      ps.setString(1, job);
      ps.setTimestamp(2, Timestamp.from(range.from()));
      ps.setTimestamp(3, Timestamp.from(range.to()));
      ArrayNode rows = ConsoleQueries.rows(ps);
      double total = 0;
      for (var r : rows) {
        total += r.path("gpu_hours_at_risk").asDouble(0);
      }
      out.put("incident_count", rows.size());
      out.put("gpu_hours_at_risk_total", total);
      out.set("incidents", rows);
    }
    return out;
  }

  /**
   * Per checkpointing job over the range: its latest SLO record (burn rates, the recommended interval)
   * and its checkpoints, each with the throughput it reached and the throughput the SLO needed.
   */
  public static ArrayNode checkpoints(Connection c, TimeRange range) throws SQLException {
    ArrayNode jobs;
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT DISTINCT ON (cluster, job) cluster, job, tier, ts, slo_seconds, burn_rate_5m, burn_rate_30m, burn_rate_1h,"
            + " burn_rate_6h, recommended_interval_s,"
            + " count(*) OVER w AS checkpoints, avg(CASE WHEN compliant THEN 1.0 ELSE 0.0 END) OVER w AS compliant_share"
            + " FROM ckpt_slo WHERE ts >= ? AND ts < ?"
            + " WINDOW w AS (PARTITION BY cluster, job) ORDER BY cluster, job, ts DESC LIMIT 200")) {
      ps.setTimestamp(1, Timestamp.from(range.from()));
      ps.setTimestamp(2, Timestamp.from(range.to()));
      jobs = ConsoleQueries.rows(ps);
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT ts, step, tier, duration_s, throughput_gbps, slo_seconds,"
            + " throughput_gbps * duration_s / nullif(slo_seconds, 0) AS slo_throughput_gbps, compliant"
            + " FROM ckpt_slo WHERE cluster = ? AND job = ? AND ts >= ? AND ts < ? ORDER BY ts DESC LIMIT 500")) {
      for (var j : jobs) {
        ps.setString(1, j.path("cluster").asText());
        ps.setString(2, j.path("job").asText());
        ps.setTimestamp(3, Timestamp.from(range.from()));
        ps.setTimestamp(4, Timestamp.from(range.to()));
        ArrayNode pts = ConsoleQueries.rows(ps);
        ArrayNode ordered = F.arrayNode();
        for (int i = pts.size() - 1; i >= 0; i--) {
          ordered.add(pts.get(i));
        }
        ((ObjectNode) j).set("points", ordered);
      }
    }
    return jobs;
  }

  private static void putRange(ObjectNode out, TimeRange range) {
    out.put("from", range.from().toString());
    out.put("to", range.to().toString());
    out.put("resolution", range.resolution().name().toLowerCase(java.util.Locale.ROOT));
    out.put("bucket_seconds", range.bucketSeconds());
  }

  private static Double dbl(ResultSet rs, int i) throws SQLException {
    double v = rs.getDouble(i);
    return rs.wasNull() ? null : v;
  }

  private static Long lng(ResultSet rs, int i) throws SQLException {
    long v = rs.getLong(i);
    return rs.wasNull() ? null : v;
  }

  private static Boolean bool(ResultSet rs, int i) throws SQLException {
    boolean v = rs.getBoolean(i);
    return rs.wasNull() ? null : v;
  }
}
