package io.fleetscope.sink.export;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns an {@link ExportScope} into the node and device ids whose records it covers, through the
 * current inventory: a rack's nodes, and the CDUs and PDUs that feed the nodes or the racks.
 */
final class ScopeResolver {
  /** The ids an export filters on; {@code narrowed} false: every node and device of the clusters. */
  record Resolved(Set<String> clusters, Set<String> nodes, Set<String> devices, Set<String> racks, boolean narrowed) {}

  private final Connection c;

  ScopeResolver(Connection c) {
    this.c = c;
  }

  Resolved resolve(ExportScope s) throws SQLException {
    if (!s.narrowed()) {
      return new Resolved(s.clusters(), Set.of(), Set.of(), Set.of(), false);
    }
    Set<String> nodes = new TreeSet<>(s.nodes());
    nodes.addAll(ids("SELECT id FROM inventory_current WHERE kind = 'node' AND rack = ANY(?)", s.racks()));
    Set<String> devices = new TreeSet<>(s.devices());
    devices.addAll(ids("SELECT cdu FROM inventory_current WHERE kind = 'node' AND cdu IS NOT NULL AND id = ANY(?) "
        + "UNION SELECT split_part(o, '/', 1) FROM inventory_current, jsonb_array_elements_text(pdu_outlets) o "
        + "WHERE kind = 'node' AND id = ANY(?)", nodes, nodes));
    devices.addAll(ids("SELECT id FROM inventory_current WHERE kind IN ('pdu', 'cdu') AND (rack = ANY(?) "
        + "OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(racks) r WHERE r = ANY(?)))", s.racks(), s.racks()));
    return new Resolved(s.clusters(), nodes, devices, s.racks(), true);
  }

  private Set<String> ids(String sql, Set<?>... binds) throws SQLException {
    Set<String> out = new TreeSet<>();
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < binds.length; i++) {
        p.setArray(i + 1, array(c, binds[i]));
      }
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          if (rs.getString(1) != null) {
            out.add(rs.getString(1));
          }
        }
      }
    }
    return out;
  }

  static Array array(Connection c, Set<?> values) throws SQLException {
    return c.createArrayOf("text", values.stream().map(Object::toString).toArray());
  }
}
