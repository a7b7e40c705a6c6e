package io.fleetscope.flink.core;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * The one typed configuration of every analytic. Defaults live in the classpath resource
 * {@code analytics-defaults.yaml} (every key documented there); a user file overrides any subset of
 * keys (deep merge). Each analytic owns one top-level section and binds it lazily to its own record
 * class with {@link #section(String, Class)}; keys are snake_case, unknown keys are refused, so a
 * typo fails at start with the key's name instead of being ignored.
 *
 * <p>Serializable (it carries the merged tree as text), but analytics should bind their section in
 * {@code build()} on the client and hand the typed record to their operators.
 */
public final class AnalyticsConfig implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String DEFAULTS_RESOURCE = "/analytics-defaults.yaml";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
      .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

  private final String mergedJson;
  private transient JsonNode tree;

  private AnalyticsConfig(JsonNode tree) {
    this.tree = tree;
    this.mergedJson = tree.toString();
  }

  /** The documented defaults. */
  public static AnalyticsConfig defaults() {
    return new AnalyticsConfig(readDefaults());
  }

  /** Defaults overridden by a YAML file. */
  public static AnalyticsConfig load(Path file) {
    try {
      return fromYaml(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read config " + file + ": " + e.getMessage(), e);
    }
  }

  /** Defaults overridden by YAML text (may be empty). */
  public static AnalyticsConfig fromYaml(String overrides) {
    JsonNode base = readDefaults();
    if (overrides != null && !overrides.isBlank()) {
      JsonNode o;
      try {
        o = YAML.readTree(overrides);
      } catch (IOException e) {
        throw new IllegalArgumentException("config is not valid YAML: " + e.getMessage(), e);
      }
      if (o != null && !o.isMissingNode() && !o.isNull()) {
        if (!o.isObject()) {
          throw new IllegalArgumentException("config must be a YAML mapping of sections");
        }
        merge((ObjectNode) base, o);
      }
    }
    return new AnalyticsConfig(base);
  }

  /** A copy with one key replaced, e.g. {@code with("rail", "window_ms", 5000)}; for tests and flags. */
  public AnalyticsConfig with(String section, String key, Object value) {
    ObjectNode copy = tree().deepCopy();
    JsonNode s = copy.get(section);
    ObjectNode sec = s instanceof ObjectNode on ? on : copy.putObject(section);
    sec.set(key, YAML.valueToTree(value));
    return new AnalyticsConfig(copy);
  }

  /**
   * Binds section {@code name} to {@code type} (a record with snake_case components). Throws
   * IllegalArgumentException naming the section and the bad key or value.
   */
  public <T> T section(String name, Class<T> type) {
    JsonNode s = tree().get(name);
    if (s == null || s.isNull()) {
      throw new IllegalArgumentException("config section '" + name + "' is missing (and has no defaults)");
    }
    try {
      return YAML.treeToValue(s, type);
    } catch (IOException | IllegalArgumentException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String msg = root instanceof IllegalArgumentException ? root.getMessage() : e.getMessage();
      throw new IllegalArgumentException("config section '" + name + "': " + firstLine(msg), e);
    }
  }

  /** Whether a section exists (for optional analytics). */
  public boolean has(String name) {
    return tree().has(name);
  }

  public PipelineConfig pipeline() {
    return section("pipeline", PipelineConfig.class);
  }

  /** Every leaf setting as {@code section.key -> value} (JSON text), for comparing two configurations. */
  public Map<String, String> flat() {
    Map<String, String> out = new java.util.TreeMap<>();
    flatten("", tree(), out);
    return out;
  }

  private static void flatten(String path, JsonNode n, Map<String, String> out) {
    if (n.isObject()) {
      n.fields().forEachRemaining(e -> flatten(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(), out));
    } else {
      out.put(path, n.toString());
    }
  }

  /** The merged configuration as YAML, for logs and {@code --print-config}. */
  public String toYaml() {
    try {
      return YAML.writeValueAsString(tree());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private JsonNode tree() {
    if (tree == null) {
      try {
        tree = YAML.readTree(mergedJson);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return tree;
  }

  private static JsonNode readDefaults() {
    try (InputStream in = AnalyticsConfig.class.getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + DEFAULTS_RESOURCE + " missing from the classpath");
      }
      ObjectNode root = (ObjectNode) YAML.readTree(in);
      JsonNode includes = root.remove("include");
      if (includes != null) {
        for (JsonNode inc : includes) {
          try (InputStream part = AnalyticsConfig.class.getResourceAsStream("/" + inc.asText())) {
            if (part != null) {
              merge(root, YAML.readTree(part));
            }
          }
        }
      }
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + DEFAULTS_RESOURCE, e);
    }
  }

  private static void merge(ObjectNode base, JsonNode over) {
    Iterator<Map.Entry<String, JsonNode>> it = over.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode b = base.get(e.getKey());
      if (b instanceof ObjectNode bo && e.getValue().isObject()) {
        merge(bo, e.getValue());
      } else {
        base.set(e.getKey(), e.getValue());
      }
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "invalid";
    }
    int i = s.indexOf('\n');
    return i < 0 ? s : s.substring(0, i);
  }
}
