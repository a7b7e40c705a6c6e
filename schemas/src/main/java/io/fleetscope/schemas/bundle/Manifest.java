package io.fleetscope.schemas.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code manifest.json} of a bundle: the time range and scope it covers, the incident it was cut
 * for (if any), the FleetScope version that wrote it, and every file with its role, record source,
 * count, size, SHA-256 and schema fingerprint.
 *
 * @param scope the filters that chose the records (cluster, node, rack, incident's nodes and devices)
 * @param incident the incident fingerprint a {@code incident export} was cut for; null otherwise
 */
public record Manifest(String format, String fleetscopeVersion, Instant createdAt, Instant from, Instant to,
    Map<String, List<String>> scope, String incident, List<BundleFile> files) {
  public static final String FORMAT = "fleetscope-bundle-v1";
  public static final String FILE = "manifest.json";
  /** The analytics settings that produced the bundle's derived records and anomalies (YAML), when recorded. */
  public static final String ANALYTICS_CONFIG = "config/analytics.yaml";
  /** The correlator settings that produced the bundle's incident versions (YAML, section correlator:), when recorded. */
  public static final String CORRELATOR_CONFIG = "config/correlator.yaml";
  private static final ObjectMapper JSON = new ObjectMapper();

  public Manifest {
    scope = copy(scope);
    files = List.copyOf(files);
  }

  private static Map<String, List<String>> copy(Map<String, List<String>> m) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return java.util.Collections.unmodifiableMap(out);
  }

  public long records() {
    return files.stream().filter(BundleFile::isAvro).mapToLong(BundleFile::records).sum();
  }

  public List<BundleFile> filesOf(BundleRole role) {
    return files.stream().filter(f -> f.role() == role).toList();
  }

  public String toJson() {
    ObjectNode m = JSON.createObjectNode();
    m.put("format", format);
    m.put("fleetscope_version", fleetscopeVersion);
    m.put("created_at", createdAt.toString());
    m.put("from", from.toString());
    m.put("to", to.toString());
    ObjectNode s = m.putObject("scope");
    scope.forEach((k, v) -> {
      ArrayNode a = s.putArray(k);
      v.forEach(a::add);
    });
    if (incident != null) {
      m.put("incident", incident);
    }
    m.put("records", records());
    ArrayNode a = m.putArray("files");
    for (BundleFile f : files) {
      ObjectNode o = a.addObject();
      o.put("file", f.file());
      if (f.topic() != null) {
        o.put("topic", f.topic());
      }
      o.put("role", f.role().id());
      o.put("source", f.source().id());
      if (f.keyField() != null) {
        o.put("key_field", f.keyField());
      }
      o.put("records", f.records());
      o.put("bytes", f.bytes());
      o.put("sha256", f.sha256());
      if (f.schemaFingerprint() != null) {
        o.put("schema_fingerprint", f.schemaFingerprint());
      }
      if (f.schemaId() != null) {
        o.put("schema_id", f.schemaId());
      }
      if (!f.writerSchemaIds().isEmpty()) {
        ArrayNode ids = o.putArray("writer_schema_ids");
        f.writerSchemaIds().forEach(ids::add);
      }
    }
    return m.toPrettyString() + "\n";
  }

  /** Parses manifest.json; anything missing or malformed is a {@link BadBundleException} naming the manifest. */
  public static Manifest parse(String json) {
    try {
      JsonNode m = JSON.readTree(json);
      String format = text(m, "format");
      if (!FORMAT.equals(format)) {
        throw new BadBundleException(FILE, "format is '" + format + "', expected '" + FORMAT + "'");
      }
      Map<String, List<String>> scope = new LinkedHashMap<>();
      m.path("scope").fields().forEachRemaining(e -> {
        List<String> vs = new ArrayList<>();
        e.getValue().forEach(v -> vs.add(v.asText()));
        scope.put(e.getKey(), vs);
      });
      List<BundleFile> files = new ArrayList<>();
      for (JsonNode o : m.path("files")) {
        files.add(new BundleFile(text(o, "file"), o.hasNonNull("topic") ? o.get("topic").asText() : null,
            BundleRole.parse(text(o, "role")), RecordSource.parse(text(o, "source")),
            o.hasNonNull("key_field") ? o.get("key_field").asText() : null, o.path("records").asLong(),
            o.path("bytes").asLong(), text(o, "sha256"),
            o.hasNonNull("schema_fingerprint") ? o.get("schema_fingerprint").asText() : null,
            o.hasNonNull("schema_id") ? o.get("schema_id").asInt() : null, ints(o.path("writer_schema_ids"))));
      }
      return new Manifest(format, text(m, "fleetscope_version"), Instant.parse(text(m, "created_at")),
          Instant.parse(text(m, "from")), Instant.parse(text(m, "to")), scope,
          m.hasNonNull("incident") ? m.get("incident").asText() : null, files);
    } catch (IOException | RuntimeException e) {
      if (e instanceof BadBundleException b) {
        throw b;
      }
      throw new BadBundleException(FILE, "unreadable: " + e.getMessage());
    }
  }

  private static List<Integer> ints(JsonNode a) {
    List<Integer> out = new ArrayList<>();
    a.forEach(v -> out.add(v.asInt()));
    return out;
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return v.asText();
  }
}
