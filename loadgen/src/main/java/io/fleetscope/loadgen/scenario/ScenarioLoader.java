package io.fleetscope.loadgen.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads scenario files (YAML). Built-in scenarios live under {@code scenarios/} on the classpath and are
 * listed in {@code scenarios/index.txt}; any other file can be given by path.
 */
public final class ScenarioLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> TOP_KEYS =
      Set.of("name", "description", "duration", "min_nodes", "site", "settings", "faults", "analytics");
  private static final Set<String> FAULT_KEYS =
      Set.of("id", "type", "target", "start", "end", "params", "alerts", "match");

  private ScenarioLoader() {}

  /** Names of the built-in scenarios, in index order. */
  public static List<String> builtinNames() {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/index.txt")) {
      if (in == null) {
        throw new IllegalStateException("scenarios/index.txt missing from the classpath");
      }
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          out.add(t);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A built-in scenario by name, or a scenario file by path. */
  public static Scenario load(String nameOrPath) {
    if (nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml") || nameOrPath.contains("/")) {
      Path p = Path.of(nameOrPath);
      try {
        return parse(Files.readString(p), p.toString());
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read scenario file " + p + ": " + e.getMessage(), e);
      }
    }
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/" + nameOrPath + ".yaml")) {
      if (in == null) {
        throw new IllegalArgumentException("unknown scenario '" + nameOrPath + "'; built-in: " + builtinNames()
            + " (or give a path to a .yaml file)");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), nameOrPath + ".yaml");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses one scenario document; errors name the file and the offending key. */
  @SuppressWarnings("unchecked")
  public static Scenario parse(String yaml, String where) {
    Map<String, Object> doc;
    try {
      doc = YAML.readValue(yaml, Map.class);
    } catch (IOException e) {
      throw new IllegalArgumentException(where + ": not valid YAML: " + e.getMessage());
    }
    if (doc == null) {
      throw new IllegalArgumentException(where + ": empty scenario");
    }
    unknownKeys(doc.keySet(), TOP_KEYS, where);
    String name = str(doc.get("name"), where, "name");
    String description = doc.get("description") == null ? "" : doc.get("description").toString().strip();
    Duration duration = doc.get("duration") == null ? Duration.ofMinutes(10) : dur(doc.get("duration"), where, "duration");
    int minNodes = doc.get("min_nodes") == null ? 1 : ((Number) doc.get("min_nodes")).intValue();
    Map<String, Object> site = doc.get("site") == null ? Map.of() : (Map<String, Object>) doc.get("site");
    Map<String, Object> settings = doc.get("settings") == null ? Map.of() : (Map<String, Object>) doc.get("settings");
    List<FaultSpec> faults = new ArrayList<>();
    Object fl = doc.get("faults");
    if (fl != null && !(fl instanceof List)) {
      throw new IllegalArgumentException(where + ": 'faults' must be a list");
    }
    Set<String> ids = new LinkedHashSet<>();
    int i = 0;
    for (Object o : fl == null ? List.of() : (List<Object>) fl) {
      String at = where + ": faults[" + i++ + "]";
      if (!(o instanceof Map)) {
        throw new IllegalArgumentException(at + " must be a mapping");
      }
      Map<String, Object> f = (Map<String, Object>) o;
      unknownKeys(f.keySet(), FAULT_KEYS, at);
      FaultType type;
      try {
        type = FaultType.parse(str(f.get("type"), at, "type"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + ": " + e.getMessage());
      }
      String id = f.get("id") == null ? type.yamlName() + "-" + i : f.get("id").toString();
      if (!ids.add(id)) {
        throw new IllegalArgumentException(at + ": duplicate fault id '" + id + "'");
      }
      Map<String, Object> target = f.get("target") == null ? Map.of() : new LinkedHashMap<>((Map<String, Object>) f.get("target"));
      Duration start = f.get("start") == null ? Duration.ZERO : dur(f.get("start"), at, "start");
      Duration end = f.get("end") == null ? null : dur(f.get("end"), at, "end");
      if (end != null && end.compareTo(start) <= 0) {
        throw new IllegalArgumentException(at + ": end (" + end + ") must be after start (" + start + ")");
      }
      Map<String, Object> params = f.get("params") == null ? Map.of() : (Map<String, Object>) f.get("params");
      List<String> alerts = f.get("alerts") == null ? null : ((List<Object>) f.get("alerts")).stream().map(Object::toString).toList();
      List<String> match = f.get("match") == null ? null : ((List<Object>) f.get("match")).stream().map(Object::toString).toList();
      faults.add(new FaultSpec(id, type, target, start, end, params, alerts, match));
    }
    Object an = doc.get("analytics");
    if (an != null && !(an instanceof Map)) {
      throw new IllegalArgumentException(where + ": 'analytics' must be a mapping of analytics config sections");
    }
    Map<String, Object> analytics = an == null ? Map.of() : (Map<String, Object>) an;
    return new Scenario(name, description, duration, minNodes, site, settings, List.copyOf(faults), analytics);
  }

  private static void unknownKeys(Set<String> keys, Set<String> allowed, String where) {
    for (String k : keys) {
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException(where + ": unknown key '" + k + "'; allowed: " + allowed);
      }
    }
  }

  private static String str(Object o, String where, String key) {
    if (o == null || o.toString().isBlank()) {
      throw new IllegalArgumentException(where + ": '" + key + "' is required");
    }
    return o.toString();
  }

  private static Duration dur(Object o, String where, String key) {
    try {
      return Durations.of(o);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(where + ": '" + key + "': " + e.getMessage());
    }
  }
}
