package io.fleetscope.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The console's storage-tier and fabric-configuration views: their API and the script that draws
 * them (the page's {@code #/storage} and {@code #/fabric} routes). They read what the named queries
 * {@code storage-tiers} and {@code fabric-config} read (the sink's V029: {@code storage_tiers(from, to)}
 * and {@code v_fabric_config}).
 *
 * <pre>
 * GET /api/storage?last=1h&amp;node=N&amp;tier=T        every node's tiers over a range (or from=...&amp;to=...),
 *                                                degraded first: rates, latency per operation, NVMe health, alerts
 * GET /api/fabric?rail=R&amp;node=N&amp;only_drift=1     every fabric port's configuration, drifting ports first
 * GET /assets/storage-fabric.js                  the views' script
 * </pre>
 */
final class StorageFabricViews {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  static final List<String> PATHS = List.of("/api/storage", "/api/fabric");
  private static final Set<String> TIERS = Set.of("local-nvme", "lustre", "nfs");

  private StorageFabricViews() {}

  /** The answer of a path these views serve, or null for any other path. */
  static ConsoleApi.Answer answer(ConsoleApi.Db db, String path, Map<String, String> q) throws SQLException, IOException {
    switch (path) {
      case "/api/storage": {
        TimeRange r = TimeRange.parse(q, Instant.now());
        String node = text(q, "node");
        String tier = text(q, "tier");
        if (!tier.isEmpty() && !TIERS.contains(tier)) {
          throw new ConsoleServer.BadParam("tier must be one of local-nvme, lustre, nfs, got '" + tier + "'");
        }
        try (Connection c = db.connect()) {
          return ConsoleApi.Answer.json(storage(c, r, node, tier));
        }
      }
      case "/api/fabric": {
        String node = text(q, "node");
        int rail = ConsoleServer.intParam(q, "rail", -1, 0, 1023);
        boolean onlyDrift = ConsoleServer.intParam(q, "only_drift", 0, 0, 1) == 1;
        try (Connection c = db.connect()) {
          return ConsoleApi.Answer.json(fabric(c, node, rail, onlyDrift));
        }
      }
      case "/assets/storage-fabric.js":
        try (InputStream in = StorageFabricViews.class.getResourceAsStream("/console/storage-fabric.js")) {
          if (in == null) {
            throw new IOException("console asset missing from the jar: /console/storage-fabric.js");
          }
          return new ConsoleApi.Answer(200, "text/javascript; charset=utf-8", in.readAllBytes());
        }
      default:
        return null;
    }
  }

  /** Every node's storage tiers over the range, degraded ones first, and how many are degraded. */
  static ObjectNode storage(Connection c, TimeRange r, String node, String tier) throws SQLException {
    ArrayNode rows;
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM storage_tiers(?, ?) WHERE (? = '' OR node = ?) AND (? = '' OR tier = ?)"
        + " ORDER BY state = 'ok', cluster, node, tier, device LIMIT 5000")) {
      ps.setTimestamp(1, Timestamp.from(r.from()));
      ps.setTimestamp(2, Timestamp.from(r.to()));
      ps.setString(3, node);
      ps.setString(4, node);
      ps.setString(5, tier);
      ps.setString(6, tier);
      rows = ConsoleQueries.rows(ps);
    }
    ObjectNode out = F.objectNode();
    out.put("from", r.from().toString());
    out.put("to", r.to().toString());
    out.put("devices", rows.size());
    int degraded = 0;
    for (var x : rows) {
      if (!"ok".equals(x.path("state").asText())) degraded++;
    }
    out.put("degraded", degraded);
    out.set("tiers", rows);
    return out;
  }

  /** Every fabric port's current configuration, ports that drift or differ from their rail first. */
  static ObjectNode fabric(Connection c, String node, int rail, boolean onlyDrift) throws SQLException {
    ArrayNode rows;
    try (PreparedStatement ps = c.prepareStatement("SELECT ts, cluster, node, device, port, netdev, rail, link_layer, mtu_bytes, trust,"
        + " pfc_prios, ecn_np_prios, ecn_rp_prios, cnp_dscp, dcqcn, rate_gbps, link_width, link_speed, cap_mask, rail_ports,"
        + " to_jsonb(differs_from_rail) AS differs_from_rail,"
        + " to_jsonb(drift_fields) AS drift_fields, drift, drift_since,"
        + " active_mtu, max_mtu, sl2vl FROM v_fabric_config"
        + " WHERE (? = '' OR node = ?) AND (? < 0 OR rail = ?)"
        + " AND (NOT ? OR cardinality(drift_fields) > 0 OR cardinality(differs_from_rail) > 0)"
        + " ORDER BY cardinality(drift_fields) + cardinality(differs_from_rail) = 0, cluster, rail, node, device, port LIMIT 20000")) {
      ps.setString(1, node);
      ps.setString(2, node);
      ps.setInt(3, rail);
      ps.setInt(4, rail);
      ps.setBoolean(5, onlyDrift);
      rows = ConsoleQueries.rows(ps);
    }
    ObjectNode out = F.objectNode();
    int drifting = 0;
    for (var x : rows) {
      if (!x.path("drift_fields").isEmpty() || !x.path("differs_from_rail").isEmpty()) drifting++;
    }
    out.put("ports", rows.size());
    out.put("drifting", drifting);
    out.set("config", rows);
    return out;
  }

  private static String text(Map<String, String> q, String name) {
    String v = q.getOrDefault(name, "").strip();
    if (v.length() > 200) {
      throw new ConsoleServer.BadParam(name + " is at most 200 characters");
    }
    return v;
  }
}
