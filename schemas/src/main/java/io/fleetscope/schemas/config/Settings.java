package io.fleetscope.schemas.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The settings of a service, each declared once as a {@link Key} (name, type, default, meaning),
 * and the reader of its YAML settings file. Files are laid out like the analytics' configuration
 * (flink-jobs, {@code analytics-defaults.yaml}): one top-level section per part, snake_case keys
 * inside, units in the key's name. A key's name is {@code section.key}, e.g. {@code
 * sink.max_poll_records} is
 *
 * <pre>
 * sink:
 *   max_poll_records: 5000
 * </pre>
 *
 * <p>A file overrides any subset of the keys. Unknown sections and keys are refused naming the key
 * and the known ones; a value of the wrong type is refused naming the key. Values are kept as text
 * (as command-line flags give them); the owning configuration class checks ranges.
 */
public final class Settings {

  /** The type of a key's value in a YAML file. */
  public enum Type {
    /** a text (a number or boolean is taken as its text; empty: none). */
    STRING("text"),
    /** a whole number. */
    INTEGER("whole number"),
    /** a YAML list of texts, or one comma-separated text. */
    LIST("list");

    private final String label;

    Type(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One declared key: {@code section.key}, its type, its default (as text) and what it means. */
  public record Key(String name, Type type, String defaultValue, String doc) {
    public Key {
      int dot = name.indexOf('.');
      if (dot <= 0 || dot != name.lastIndexOf('.') || dot == name.length() - 1) {
        throw new IllegalArgumentException("a setting's name is section.key, got '" + name + "'");
      }
    }

    public String section() {
      return name.substring(0, name.indexOf('.'));
    }

    public String key() {
      return name.substring(name.indexOf('.') + 1);
    }
  }

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Settings() {}

  /** Reads a YAML settings file into {@code section.key -> value}; see {@link #parse}. */
  public static Map<String, String> read(Path file, List<Key> keys) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read settings file " + file + ": " + e.getMessage(), e);
    }
    try {
      return parse(text, keys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses YAML settings text into {@code section.key -> value} (only the keys it sets). Refuses
   * unknown sections and keys (naming them and the known ones) and values of the wrong type.
   */
  public static Map<String, String> parse(String text, List<Key> keys) {
    Map<String, String> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException("settings are not valid YAML: " + firstLine(e.getMessage()), e);
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return out;
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException("settings must be a YAML mapping of sections (" + String.join(", ", sections(keys))
          + "), got " + kind(root));
    }
    Map<String, Key> byName = new LinkedHashMap<>();
    keys.forEach(k -> byName.put(k.name(), k));
    Iterator<Map.Entry<String, JsonNode>> sections = root.fields();
    while (sections.hasNext()) {
      Map.Entry<String, JsonNode> s = sections.next();
      if (!sections(keys).contains(s.getKey())) {
        throw new IllegalArgumentException("unknown section '" + s.getKey() + "'; known sections: " + String.join(", ", sections(keys)));
      }
      if (s.getValue().isNull()) {
        continue;
      }
      if (!s.getValue().isObject()) {
        throw new IllegalArgumentException("section '" + s.getKey() + "' must be a mapping of keys, got " + kind(s.getValue()));
      }
      Iterator<Map.Entry<String, JsonNode>> fields = s.getValue().fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> f = fields.next();
        String name = s.getKey() + "." + f.getKey();
        Key k = byName.get(name);
        if (k == null) {
          throw new IllegalArgumentException("unknown setting '" + name + "'; known settings: " + String.join(", ", byName.keySet()));
        }
        out.put(name, value(k, f.getValue()));
      }
    }
    return out;
  }

  private static String value(Key k, JsonNode v) {
    switch (k.type()) {
      case INTEGER -> {
        if (!v.isIntegralNumber()) {
          throw wrongType(k, v);
        }
        return v.asText();
      }
      case STRING -> {
        if (v.isNull()) {
          return "";
        }
        if (!v.isValueNode()) {
          throw wrongType(k, v);
        }
        return v.asText();
      }
      case LIST -> {
        if (v.isNull()) {
          return "";
        }
        if (v.isValueNode()) {
          return v.asText();
        }
        if (!v.isArray()) {
          throw wrongType(k, v);
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : v) {
          if (!item.isValueNode() || item.isNull()) {
            throw new IllegalArgumentException(k.name() + " must be a list of texts, got an item that is " + kind(item));
          }
          items.add(item.asText());
        }
        return String.join(",", items);
      }
      default -> throw new IllegalStateException(k.type().toString());
    }
  }

  private static IllegalArgumentException wrongType(Key k, JsonNode v) {
    String got = v.isValueNode() && !v.isNull() ? kind(v) + " '" + v.asText() + "'" : kind(v);
    return new IllegalArgumentException(k.name() + " must be a " + k.type().label() + ", got " + got);
  }

  private static String kind(JsonNode n) {
    if (n.isObject()) {
      return "a mapping";
    }
    if (n.isArray()) {
      return "a list";
    }
    if (n.isNull()) {
      return "nothing";
    }
    if (n.isNumber()) {
      return "a number";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    return "a text";
  }

  private static Set<String> sections(List<Key> keys) {
    Set<String> s = new LinkedHashSet<>();
    keys.forEach(k -> s.add(k.section()));
    return s;
  }

  /** The keys as a Markdown table (key, type, default, meaning), for the module README. */
  public static String markdownTable(List<Key> keys) {
    StringBuilder b = new StringBuilder("| key | type | default | meaning |\n|---|---|---|---|\n");
    for (Key k : keys) {
      b.append("| `").append(k.name()).append("` | ").append(k.type().label()).append(" | ")
          .append(k.defaultValue().isEmpty() ? "(none)" : "`" + k.defaultValue() + "`").append(" | ")
          .append(k.doc().replace("|", "\\|")).append(" |\n");
    }
    return b.toString();
  }

  /** Every key with its default, as a YAML file with each key's meaning as a comment. */
  public static String yamlTemplate(String header, List<Key> keys) {
    StringBuilder b = new StringBuilder();
    for (String line : header.split("\n")) {
      b.append("# ").append(line).append('\n');
    }
    String section = null;
    for (Key k : keys) {
      if (!k.section().equals(section)) {
        section = k.section();
        b.append('\n').append(section).append(":\n");
      }
      b.append("  # ").append(k.doc()).append('\n');
      b.append("  ").append(k.key()).append(": ").append(yamlValue(k)).append('\n');
    }
    return b.toString();
  }

  private static String yamlValue(Key k) {
    String v = k.defaultValue();
    if (k.type() == Type.INTEGER) {
      return v;
    }
    if (k.type() == Type.LIST) {
      List<String> items = new ArrayList<>();
      for (String s : v.split(",")) {
        if (!s.isBlank()) {
          items.add(quote(s.trim()));
        }
      }
      return "[" + String.join(", ", items) + "]";
    }
    return quote(v);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "invalid";
    }
    int i = s.indexOf('\n');
    return i < 0 ? s : s.substring(0, i);
  }
}
