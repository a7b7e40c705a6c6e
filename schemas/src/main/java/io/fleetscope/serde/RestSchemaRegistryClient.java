package io.fleetscope.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schema Registry client over the Confluent REST API with id caches: a schema is registered once per
 * subject and a writer schema is fetched once per id. Transient failures (connection refused, 5xx,
 * timeouts) are retried with exponential back-off; 4xx answers are final and raised as
 * {@link RegistryException} with the registry's error code.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {
  private static final Logger log = LoggerFactory.getLogger(RestSchemaRegistryClient.class);
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final String authorization;
  private final int maxAttempts;
  private final Duration requestTimeout;
  private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
  private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

  public RestSchemaRegistryClient(String baseUrl) {
    this(baseUrl, 5, Duration.ofSeconds(10));
  }

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:18081}; a trailing slash is ignored
   * @param maxAttempts attempts per request for transient failures (at least 1)
   * @param requestTimeout timeout of one HTTP request
   */
  public RestSchemaRegistryClient(String baseUrl, int maxAttempts, Duration requestTimeout) {
    this(baseUrl, null, maxAttempts, requestTimeout);
  }

  /**
   * A client that sends HTTP basic auth as Confluent's clients do: {@code userInfo}
   * ({@code user:password}, Confluent's {@code basic.auth.user.info}) when given, else the user info
   * of {@code baseUrl} ({@code http://user:password@host:port}), else none.
   */
  public RestSchemaRegistryClient(String baseUrl, String userInfo) {
    this(baseUrl, userInfo, 5, Duration.ofSeconds(10));
  }

  /** As {@link #RestSchemaRegistryClient(String, String)} with the given retries and timeout. */
  public RestSchemaRegistryClient(String baseUrl, String userInfo, int maxAttempts, Duration requestTimeout) {
    Objects.requireNonNull(baseUrl, "schema registry url");
    if (baseUrl.isBlank()) {
      throw new IllegalArgumentException("schema registry url is empty");
    }
    RegistryUrl url = RegistryUrl.parse(baseUrl);
    this.baseUrl = url.withoutUserInfo();
    this.authorization = RegistryUrl.basicAuthorization(userInfo != null ? userInfo : url.userInfo());
    this.maxAttempts = Math.max(1, maxAttempts);
    this.requestTimeout = requestTimeout;
  }

  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public int register(String subject, Schema schema) {
    Map<Schema, Integer> cache = idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>());
    Integer cached = cache.get(schema);
    if (cached != null) {
      return cached;
    }
    JsonNode body = send("POST", "/subjects/" + enc(subject) + "/versions", schemaBody(schema));
    int id = body.path("id").asInt(-1);
    if (id < 0) {
      throw new RegistryException(500, 50001, "registry answered without an id for subject " + subject + ": " + body);
    }
    cache.put(schema, id);
    schemasById.putIfAbsent(id, schema);
    log.info("registry register subject={} id={}", subject, id);
    return id;
  }

  @Override
  public Schema getById(int id) {
    Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    JsonNode body = send("GET", "/schemas/ids/" + id, null);
    String type = body.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new RegistryException(422, 42201, "schema id " + id + " is of type " + type + ", not AVRO");
    }
    Schema schema;
    try {
      schema = new Schema.Parser().parse(body.path("schema").asText());
    } catch (SchemaParseException e) {
      throw new RegistryException(422, 42201, "schema id " + id + " is not a valid Avro schema: " + e.getMessage(), e);
    }
    schemasById.put(id, schema);
    return schema;
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    try {
      JsonNode body = send("POST", "/compatibility/subjects/" + enc(subject) + "/versions/latest", schemaBody(schema));
      return body.path("is_compatible").asBoolean(false);
    } catch (RegistryException e) {
      if (e.errorCode() == 40401 || e.errorCode() == 40402) {
        return true; // nothing registered yet: any schema is compatible
      }
      throw e;
    }
  }

  private static String schemaBody(Schema schema) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", schema.toString());
    return n.toString();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private JsonNode send(String method, String path, String body) {
    long backoffMs = 100;
    RegistryException last = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        Answer resp = exchange(method, path, body);
        int status = resp.status();
        if (status >= 200 && status < 300) {
          return JSON.readTree(resp.body().isEmpty() ? "{}" : resp.body());
        }
        RegistryException err = errorOf(method, path, status, resp.body());
        if (status < 500) {
          throw err;
        }
        last = err;
      } catch (IOException e) {
        last = new RegistryException(RegistryException.UNREACHABLE, 0,
            "schema registry at " + baseUrl + " is unreachable: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
      }
      if (attempt < maxAttempts) {
        // debug: callers that wait out an outage (RegistryWait) log its start and end once
        log.debug("registry retry method={} path={} attempt={} reason=\"{}\"", method, path, attempt, last.getMessage());
        try {
          Thread.sleep(backoffMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw last;
        }
        backoffMs = Math.min(backoffMs * 2, 2000);
      }
    }
    throw last;
  }

  private record Answer(int status, String body) {}

  /**
   * One request over {@link HttpURLConnection}: with a plain-http registry it loads no TLS classes
   * and reads no trust store, and it keeps no selector thread (java.net.http's client does all three,
   * several MiB in the node agent, which registers its few schemas once at start).
   */
  private Answer exchange(String method, String path, String body) throws IOException {
    // direct, as java.net.http's default client was: no proxy from system properties
    HttpURLConnection c = (HttpURLConnection) URI.create(baseUrl + path).toURL().openConnection(Proxy.NO_PROXY);
    try {
      c.setConnectTimeout((int) Math.min(Integer.MAX_VALUE, CONNECT_TIMEOUT.toMillis()));
      c.setReadTimeout((int) Math.min(Integer.MAX_VALUE, requestTimeout.toMillis()));
      c.setRequestMethod(method);
      c.setRequestProperty("Accept", CONTENT_TYPE + ", application/json");
      if (authorization != null) {
        c.setRequestProperty("Authorization", authorization);
      }
      if (body != null) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        c.setRequestProperty("Content-Type", CONTENT_TYPE);
        // buffered, not streamed: in streaming mode a 401 drops the answer's body (its error code)
        c.setDoOutput(true);
        try (OutputStream out = c.getOutputStream()) {
          out.write(bytes);
        }
      }
      int status = c.getResponseCode();
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      String text = "";
      if (in != null) {
        try (in) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
      return new Answer(status, text);
    } finally {
      c.disconnect();
    }
  }

  private static RegistryException errorOf(String method, String path, int status, String body) {
    int code = status;
    String message = body;
    try {
      JsonNode n = JSON.readTree(body);
      code = n.path("error_code").asInt(status);
      message = n.path("message").asText(body);
    } catch (IOException ignored) {
      // not JSON: keep the raw body as the message
    }
    return new RegistryException(status, code,
        "schema registry " + method + " " + path + " failed: http=" + status + " error_code=" + code + " message=" + message);
  }
}
