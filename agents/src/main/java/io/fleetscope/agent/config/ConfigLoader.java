package io.fleetscope.agent.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fleetscope.agent.core.CollectorRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads the agent's YAML file into {@link AgentConfig}: top-level agent keys plus one section per
 * registered collector. Every problem is reported as a {@link ConfigException} naming the key.
 */
public final class ConfigLoader {
  /** Top-level keys that are not collector sections. */
  public static final Set<String> AGENT_KEYS = Set.of("cluster", "node", "interval", "paths", "kafka", "spool", "metrics");

  private final CollectorRegistry registry;
  private final ObjectMapper mapper;

  public ConfigLoader(CollectorRegistry registry) {
    this.registry = registry;
    this.mapper = newMapper();
  }

  static ObjectMapper newMapper() {
    SimpleModule units = new SimpleModule("fleetscope-units");
    units.addDeserializer(Duration.class, new JsonDeserializer<>() {
      @Override
      public Duration deserialize(JsonParser p, DeserializationContext c) throws IOException {
        try {
          return Units.duration(p.getValueAsString());
        } catch (IllegalArgumentException e) {
          throw JsonMappingException.from(p, e.getMessage());
        }
      }
    });
    units.addDeserializer(Path.class, new JsonDeserializer<>() {
      @Override
      public Path deserialize(JsonParser p, DeserializationContext c) throws IOException {
        return Path.of(p.getValueAsString());
      }
    });
    units.addDeserializer(ByteSize.class, new JsonDeserializer<>() {
      @Override
      public ByteSize deserialize(JsonParser p, DeserializationContext c) throws IOException {
        try {
          return ByteSize.parse(p.getValueAsString());
        } catch (IllegalArgumentException e) {
          throw JsonMappingException.from(p, e.getMessage());
        }
      }
    });
    return new ObjectMapper(new YAMLFactory())
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        .registerModule(units);
  }

  public AgentConfig load(Path file) throws ConfigException {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException("", "cannot read config file " + file + ": " + e.getMessage());
    }
    Path dir = file.toAbsolutePath().getParent();
    return parse(text, dir == null ? Path.of(".") : dir);
  }

  public AgentConfig parse(String yaml, Path baseDir) throws ConfigException {
    JsonNode root;
    try {
      root = mapper.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new ConfigException("", "not valid YAML: " + e.getOriginalMessage()
          + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
    }
    if (root == null || root.isMissingNode() || root.isNull()) root = mapper.createObjectNode();
    if (!root.isObject()) throw new ConfigException("", "the top level must be a mapping of keys");

    ObjectNode agentPart = mapper.createObjectNode();
    AgentConfig cfg;
    Map<String, JsonNode> sections = new java.util.LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (AGENT_KEYS.contains(e.getKey())) {
        agentPart.set(e.getKey(), e.getValue());
      } else if (registry.get(e.getKey()) != null) {
        sections.put(e.getKey(), e.getValue());
      } else {
        Set<String> known = new TreeSet<>(AGENT_KEYS);
        known.addAll(registry.all().keySet());
        throw new ConfigException(e.getKey(), "unknown key (known top-level keys: " + String.join(", ", known) + ")");
      }
    }
    cfg = bind(agentPart, AgentConfig.class, "");
    cfg.baseDir = baseDir;
    if (cfg.node == null) cfg.node = hostName();
    cfg.validate();

    for (var reg : registry.all().values()) {
      JsonNode section = sections.get(reg.name());
      if (section == null || section.isNull()) section = mapper.createObjectNode();
      if (!section.isObject()) throw new ConfigException(reg.name(), "must be a mapping (e.g. 'enabled: true')");
      CollectorConfig c = bind(section, reg.configClass(), reg.name() + ".");
      c.validate(reg.name());
      cfg.collectors.put(reg.name(), c);
    }
    return cfg;
  }

  private <T> T bind(JsonNode node, Class<T> type, String prefix) throws ConfigException {
    try {
      return mapper.treeToValue(node, type);
    } catch (UnrecognizedPropertyException e) {
      String known = e.getKnownPropertyIds() == null ? "" : e.getKnownPropertyIds().stream()
          .map(String::valueOf).sorted().collect(Collectors.joining(", "));
      throw new ConfigException(prefix + path(e), "unknown key" + (known.isEmpty() ? "" : " (known here: " + known + ")"));
    } catch (InvalidFormatException e) {
      throw new ConfigException(prefix + path(e), "'" + e.getValue() + "' is not a valid " + e.getTargetType().getSimpleName());
    } catch (JsonMappingException e) {
      throw new ConfigException(prefix + path(e), e.getOriginalMessage().replaceAll(" at \\[Source.*", ""));
    } catch (JsonProcessingException e) {
      throw new ConfigException(prefix, e.getOriginalMessage());
    }
  }

  private static String path(JsonMappingException e) {
    StringBuilder sb = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        if (sb.length() > 0) sb.append('.');
        sb.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) return env;
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
