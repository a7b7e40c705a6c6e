package io.fleetscope.sink.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an export covers besides its time range: clusters, nodes and racks as asked ({@code --where},
 * repeatable, values of one key ORed, keys ANDed), and for an incident the devices (CDUs, PDUs) it
 * names. Empty sets mean "any".
 */
public record ExportScope(Set<String> clusters, Set<String> nodes, Set<String> racks, Set<String> devices) {
  public static final List<String> WHERE_KEYS = List.of("cluster", "node", "rack");

  public ExportScope {
    clusters = Set.copyOf(clusters);
    nodes = Set.copyOf(nodes);
    racks = Set.copyOf(racks);
    devices = Set.copyOf(devices);
  }

  public static ExportScope everything() {
    return new ExportScope(Set.of(), Set.of(), Set.of(), Set.of());
  }

  /** Parses {@code --where KEY=VALUE} clauses; an unknown key is an IllegalArgumentException naming the keys. */
  public static ExportScope parseWhere(List<String> clauses) {
    Map<String, Set<String>> m = new LinkedHashMap<>();
    WHERE_KEYS.forEach(k -> m.put(k, new LinkedHashSet<>()));
    for (String w : clauses) {
      int eq = w.indexOf('=');
      if (eq <= 0 || !WHERE_KEYS.contains(w.substring(0, eq)) || eq == w.length() - 1) {
        throw new IllegalArgumentException("--where must be one of " + String.join("=..., ", WHERE_KEYS) + "=..., got '" + w + "'");
      }
      m.get(w.substring(0, eq)).add(w.substring(eq + 1));
    }
    return new ExportScope(m.get("cluster"), m.get("node"), m.get("rack"), Set.of());
  }

  /** Whether the scope names any node, rack or device (otherwise every node and device of the clusters). */
  public boolean narrowed() {
    return !nodes.isEmpty() || !racks.isEmpty() || !devices.isEmpty();
  }

  /** The scope as the manifest records it. */
  public Map<String, List<String>> asManifest() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    put(m, "cluster", clusters);
    put(m, "node", nodes);
    put(m, "rack", racks);
    put(m, "device", devices);
    return m;
  }

  private static void put(Map<String, List<String>> m, String k, Set<String> v) {
    if (!v.isEmpty()) {
      List<String> sorted = new ArrayList<>(v);
      sorted.sort(null);
      m.put(k, sorted);
    }
  }
}
