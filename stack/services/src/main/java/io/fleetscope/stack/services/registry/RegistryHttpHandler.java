package io.fleetscope.stack.services.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Confluent Schema Registry REST subset over a {@link SchemaStore}. */
final class RegistryHttpHandler implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(RegistryHttpHandler.class);
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchemaStore store;

  RegistryHttpHandler(SchemaStore store) {
    this.store = store;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getRawPath();
    int status = 200;
    Object body;
    try {
      body = route(method, segments(path), query(ex.getRequestURI().getRawQuery()), ex);
    } catch (RegistryException e) {
      status = e.httpStatus();
      body = error(e.errorCode(), e.getMessage());
      log.info("registry request method={} path={} status={} error_code={}", method, path, status, e.errorCode());
    } catch (JsonProcessingException e) {
      status = 400;
      body = error(400, "Malformed JSON request body: " + e.getOriginalMessage());
      log.info("registry request method={} path={} status=400 reason=malformed-json", method, path);
    } catch (RuntimeException e) {
      // store failures arrive as RegistryException (50001); anything else is our bug
      status = 500;
      body = error(500, "Internal server error: " + e);
      log.warn("registry request method={} path={} status=500 error=\"{}\"", method, path, e.toString());
    }
    byte[] bytes = body instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", body instanceof String ? "application/json" : CONTENT_TYPE);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private Object route(String method, List<String> p, Map<String, String> q, HttpExchange ex) throws IOException {
    int n = p.size();
    if (n == 0) {
      return JSON.createObjectNode();
    }
    switch (p.get(0)) {
      case "subjects":
        if (n == 1 && method.equals("GET")) {
          return store.subjects(deleted(q));
        }
        if (n == 2 && method.equals("POST")) {
          JsonNode req = body(ex);
          return versionJson(store.lookup(p.get(1), text(req, "schema"), text(req, "schemaType")));
        }
        if (n == 2 && method.equals("DELETE")) {
          if ("true".equalsIgnoreCase(q.get("permanent"))) {
            throw new RegistryException(405, 405, "Permanent (hard) delete is not supported by this registry: "
                + "schema ids must never be reused; use a soft delete");
          }
          return store.deleteSubject(p.get(1));
        }
        if (n == 3 && p.get(2).equals("versions") && method.equals("POST")) {
          JsonNode req = body(ex);
          rejectReferences(req);
          return JSON.createObjectNode().put("id", store.register(p.get(1), text(req, "schema"), text(req, "schemaType")));
        }
        if (n == 3 && p.get(2).equals("versions") && method.equals("GET")) {
          return store.versions(p.get(1), deleted(q));
        }
        if (n == 4 && p.get(2).equals("versions") && method.equals("GET")) {
          return versionJson(store.version(p.get(1), p.get(3), deleted(q)));
        }
        if (n == 5 && p.get(2).equals("versions") && p.get(4).equals("schema") && method.equals("GET")) {
          return store.version(p.get(1), p.get(3), deleted(q)).schema();
        }
        if (n == 5 && p.get(2).equals("versions") && p.get(4).equals("referencedby") && method.equals("GET")) {
          store.version(p.get(1), p.get(3), true);
          return List.of(); // schema references are not supported, so nothing refers to a version
        }
        break;
      case "schemas":
        if (n == 2 && p.get(1).equals("types") && method.equals("GET")) {
          return List.of("AVRO");
        }
        if (n >= 3 && p.get(1).equals("ids") && method.equals("GET")) {
          int id = parseId(p.get(2));
          if (n == 3) {
            return JSON.createObjectNode().put("schema", store.schemaById(id));
          }
          if (n == 4 && p.get(3).equals("schema")) {
            return store.schemaById(id);
          }
          if (n == 4 && p.get(3).equals("versions")) {
            ArrayNode arr = JSON.createArrayNode();
            store.usesOf(id).forEach(v -> arr.addObject().put("subject", v.subject()).put("version", v.version()));
            return arr;
          }
          if (n == 4 && p.get(3).equals("subjects")) {
            return store.usesOf(id).stream().map(SchemaStore.SchemaVersion::subject).distinct().toList();
          }
        }
        break;
      case "compatibility":
        if (method.equals("POST") && n >= 4 && n <= 5 && p.get(1).equals("subjects") && p.get(3).equals("versions")) {
          JsonNode req = body(ex);
          List<String> reasons = store.checkCompatibility(p.get(2), n == 5 ? p.get(4) : "latest",
              text(req, "schema"), text(req, "schemaType"));
          ObjectNode out = JSON.createObjectNode().put("is_compatible", reasons.isEmpty());
          if ("true".equalsIgnoreCase(q.get("verbose"))) {
            ArrayNode msgs = out.putArray("messages");
            reasons.forEach(msgs::add);
          }
          return out;
        }
        break;
      case "mode":
        if (method.equals("GET") && n <= 2) {
          return JSON.createObjectNode().put("mode", "READWRITE");
        }
        break;
      case "config":
        return config(method, n == 1 ? null : p.get(1), n, q, ex);
      default:
        break;
    }
    throw new RegistryException(404, 404, "HTTP 404 Not Found: " + method + " " + String.join("/", p));
  }

  private Object config(String method, String subject, int n, Map<String, String> q, HttpExchange ex) throws IOException {
    if (n > 2) {
      throw new RegistryException(404, 404, "HTTP 404 Not Found");
    }
    switch (method) {
      case "GET":
        if (subject == null) {
          return JSON.createObjectNode().put("compatibilityLevel", store.globalLevel().name());
        }
        CompatibilityLevel l = store.subjectLevel(subject).orElseGet(() -> {
          if ("true".equalsIgnoreCase(q.get("defaultToGlobal"))) {
            return store.globalLevel();
          }
          throw RegistryException.subjectLevelConfigNotFound(subject);
        });
        return JSON.createObjectNode().put("compatibilityLevel", l.name());
      case "PUT":
        JsonNode req = body(ex);
        CompatibilityLevel level = CompatibilityLevel.parse(text(req, "compatibility"));
        return JSON.createObjectNode().put("compatibility", store.setLevel(subject, level).name());
      case "DELETE":
        if (subject == null) {
          return JSON.createObjectNode().put("compatibilityLevel",
              store.setLevel(null, CompatibilityLevel.BACKWARD).name());
        }
        return JSON.createObjectNode().put("compatibilityLevel", store.deleteSubjectLevel(subject).name());
      default:
        throw new RegistryException(405, 405, "HTTP 405 Method Not Allowed");
    }
  }

  private static boolean deleted(Map<String, String> q) {
    return "true".equalsIgnoreCase(q.get("deleted"));
  }

  private static void rejectReferences(JsonNode req) {
    JsonNode refs = req.get("references");
    if (refs != null && refs.isArray() && refs.size() > 0) {
      throw RegistryException.invalidSchema("schema references are not supported by this registry");
    }
  }

  private static ObjectNode versionJson(SchemaStore.SchemaVersion v) {
    return JSON.createObjectNode().put("subject", v.subject()).put("version", v.version()).put("id", v.id())
        .put("schema", v.schema());
  }

  static String errorJson(int code, String message) {
    return error(code, message).toString();
  }

  private static ObjectNode error(int code, String message) {
    return JSON.createObjectNode().put("error_code", code).put("message", message);
  }

  private static JsonNode body(HttpExchange ex) throws IOException {
    byte[] bytes;
    try (InputStream in = ex.getRequestBody()) {
      bytes = in.readAllBytes();
    }
    if (bytes.length == 0) {
      throw new RegistryException(422, 422, "Request body is empty");
    }
    JsonNode n = JSON.readTree(bytes);
    if (n == null || !n.isObject()) {
      throw new RegistryException(422, 422, "Request body must be a JSON object");
    }
    return n;
  }

  private static String text(JsonNode req, String field) {
    JsonNode v = req.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static int parseId(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw RegistryException.schemaNotFound("id '" + s + "'");
    }
  }

  private static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null) {
      return out;
    }
    for (String kv : raw.split("&")) {
      int i = kv.indexOf('=');
      String k = URLDecoder.decode(i < 0 ? kv : kv.substring(0, i), StandardCharsets.UTF_8);
      String v = i < 0 ? "" : URLDecoder.decode(kv.substring(i + 1), StandardCharsets.UTF_8);
      out.put(k, v);
    }
    return out;
  }
}
