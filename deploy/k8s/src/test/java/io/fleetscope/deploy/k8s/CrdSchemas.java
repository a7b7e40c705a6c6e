package io.fleetscope.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OpenAPI v3 schemas of the operators' CustomResourceDefinitions (test resources {@code crds/},
 * origins in {@code crds/SOURCES.md}), made strict and checked with a JSON-schema validator.
 *
 * <p>A Kubernetes API server prunes fields a structural schema does not name, silently; here an
 * object schema that names its properties and neither allows others nor preserves unknown fields
 * gets {@code additionalProperties: false}, so a misspelt field fails instead of vanishing.
 * {@code nullable: true} becomes a {@code null} alternative; Kubernetes' own {@code x-kubernetes-*}
 * keywords are dropped after use. {@code metadata} is left to {@link StrictKubernetesModel}.
 */
final class CrdSchemas {
  static final List<String> FILES = List.of(
      "strimzi-040-Crd-kafka.yaml", "strimzi-043-Crd-kafkatopic.yaml", "strimzi-044-Crd-kafkauser.yaml",
      "strimzi-045-Crd-kafkanodepool.yaml", "flink-operator-flinkdeployments.flink.apache.org-v1.yml",
      "prometheus-operator-monitoring.coreos.com_servicemonitors.yaml",
      "prometheus-operator-monitoring.coreos.com_podmonitors.yaml");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);

  /** By {@code group/version/Kind}. */
  private final Map<String, JsonSchema> schemas = new HashMap<>();

  static CrdSchemas load() throws IOException {
    CrdSchemas s = new CrdSchemas();
    for (String f : FILES) {
      try (InputStream in = CrdSchemas.class.getResourceAsStream("/crds/" + f)) {
        if (in == null) {
          throw new IllegalStateException("no test resource crds/" + f);
        }
        JsonNode crd = YAML.readTree(in);
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        for (JsonNode v : crd.path("spec").path("versions")) {
          ObjectNode schema = v.path("schema").path("openAPIV3Schema").deepCopy();
          ObjectNode root = (ObjectNode) schema.path("properties");
          root.set("metadata", JsonNodeFactory.instance.objectNode().put("type", "object"));
          // every object may carry these at its root, whether or not its CRD names them
          for (String field : List.of("apiVersion", "kind")) {
            if (!root.has(field)) {
              root.set(field, JsonNodeFactory.instance.objectNode().put("type", "string"));
            }
          }
          strict(schema);
          s.schemas.put(group + "/" + v.path("name").asText() + "/" + kind, FACTORY.getSchema(schema));
        }
      }
    }
    return s;
  }

  /** The schema of an object's apiVersion and kind, when one of the CRDs defines it. */
  Optional<JsonSchema> schemaOf(JsonNode o) {
    return Optional.ofNullable(schemas.get(o.path("apiVersion").asText() + "/" + o.path("kind").asText()));
  }

  /** What the schema refuses in {@code o}, one line each. */
  static List<String> problems(JsonSchema schema, JsonNode o) {
    return schema.validate(o).stream().map(ValidationMessage::getMessage).sorted().toList();
  }

  static void strict(JsonNode node) {
    if (node instanceof ArrayNode a) {
      a.forEach(CrdSchemas::strict);
      return;
    }
    if (!(node instanceof ObjectNode o)) {
      return;
    }
    boolean preserve = o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (o.has("properties") && !o.has("additionalProperties") && !preserve) {
      o.put("additionalProperties", false);
    }
    if (o.path("nullable").asBoolean(false) && o.path("type").isTextual()) {
      o.set("type", JsonNodeFactory.instance.arrayNode().add(o.path("type").asText()).add("null"));
    }
    o.remove("nullable");
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (f.startsWith("x-kubernetes-")) {
        it.remove();
      }
    }
    // recurse into the schema keywords only: inside "properties" every value is a schema
    if (o.get("properties") instanceof ObjectNode props) {
      props.forEach(CrdSchemas::strict);
    }
    for (String k : List.of("items", "additionalProperties", "not")) {
      if (o.get(k) != null && o.get(k).isContainerNode()) {
        strict(o.get(k));
      }
    }
    for (String k : List.of("allOf", "anyOf", "oneOf")) {
      if (o.get(k) != null) {
        strict(o.get(k));
      }
    }
  }
}
