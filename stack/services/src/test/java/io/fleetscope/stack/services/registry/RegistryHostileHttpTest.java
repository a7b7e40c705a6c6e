package io.fleetscope.stack.services.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.http.BodyLimitFilter;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The registry's HTTP endpoint (the handler and body limit SchemaRegistryServer serves, over an
 * in-memory schema log) on 127.0.0.1, under 10,000 hostile requests: real Confluent paths and
 * bodies mutated (unknown paths and methods, ids out of range, truncated, deeply nested or
 * oversized JSON, huge numbers). Every request is answered within a time limit with a documented
 * status and a JSON error body; none with 500.
 */
class RegistryHostileHttpTest {
  static final int TRIES = 10_000;
  static final long LIMIT = 64 * 1024;
  static final ObjectMapper JSON = new ObjectMapper();
  static final String SCHEMA = "{\"type\":\"record\",\"name\":\"GpuSample\",\"namespace\":\"io.fleetscope.avro\","
      + "\"fields\":[{\"name\":\"ts\",\"type\":\"long\"},{\"name\":\"temp_c\",\"type\":[\"null\",\"double\"],\"default\":null}]}";
  static final List<String> PATHS = List.of("/subjects", "/subjects/fleet.gpu.v1-value", "/subjects/fleet.gpu.v1-value/versions",
      "/subjects/fleet.gpu.v1-value/versions/1", "/subjects/fleet.gpu.v1-value/versions/latest",
      "/subjects/fleet.gpu.v1-value/versions/1/schema", "/subjects/fleet.gpu.v1-value/versions/1/referencedby",
      "/schemas/ids/1", "/schemas/ids/1/schema", "/schemas/ids/1/versions", "/schemas/ids/1/subjects", "/schemas/types",
      "/compatibility/subjects/fleet.gpu.v1-value/versions/latest", "/config", "/config/fleet.gpu.v1-value", "/mode", "/");
  static final List<String> BODIES = List.of(
      JSON.createObjectNode().put("schema", SCHEMA).toString(),
      JSON.createObjectNode().put("schema", SCHEMA).put("schemaType", "AVRO").toString(),
      "{\"compatibility\":\"FULL\"}", "{\"compatibility\":\"NONE\"}", "");
  static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
  static final Set<Integer> DOCUMENTED = Set.of(200, 400, 404, 405, 409, 413, 415, 422);

  static HttpServer server;
  static HttpClient http;

  @BeforeContainer
  static void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(Executors.newFixedThreadPool(2));
    SchemaStore store = new SchemaStore(new InMemorySchemaLog(), CompatibilityLevel.BACKWARD);
    server.createContext("/", RegistryEndpoint.handler(store)).getFilters()
        .add(new BodyLimitFilter("registry", LIMIT, RegistryEndpoint::errorJson));
    server.start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  }

  @AfterContainer
  static void stop() {
    server.stop(0);
  }

  static String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Property(tries = TRIES)
  void everyRequestGetsADocumentedAnswer(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String path = mutatePath(PATHS.get(r.nextInt(PATHS.size())), r);
    String method = METHODS.get(r.nextInt(METHODS.size()));
    String body = mutateBody(BODIES.get(r.nextInt(BODIES.size())), r);
    HttpRequest req = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(5))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> a = http.send(req, HttpResponse.BodyHandlers.ofString());
    String what = method + " " + abbreviate(path) + " " + abbreviate(body) + " -> " + a.statusCode() + " " + a.body();
    assertThat(a.statusCode()).as(what).isIn(DOCUMENTED);
    if (a.statusCode() == 404 && a.body().contains("No context found")) {
      return; // the JDK server's own answer to a path it cannot parse as one (e.g. "//x": an authority)
    }
    if (a.statusCode() == 400 && a.body().contains("URISyntaxException thrown")) {
      return; // the JDK server refuses a request target that is not a URI (e.g. "//[[[") before any handler runs
    }
    if (a.statusCode() != 200) {
      assertThat(a.body()).as(what).startsWith("{");
      JsonNode err = JSON.readTree(a.body());
      assertThat(err.path("error_code").asInt()).as(a.body()).isPositive();
      assertThat(err.path("message").asText()).isNotBlank();
    }
  }

  @Example
  void aBodyOverTheLimitIsRefusedWith413BeforeItIsRead() throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /subjects/x/versions HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      String answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
      assertThat(answer).isEqualTo("HTTP/1.1 413");
    }
    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create(base() + "/subjects/x/versions"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"schema\":\"" + "x".repeat((int) LIMIT) + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(a.statusCode()).isEqualTo(413);
    assertThat(JSON.readTree(a.body()).get("error_code").asInt()).isEqualTo(413);
    assertThat(SchemaRegistryServer.DEFAULT_MAX_BODY_BYTES).isEqualTo(1024 * 1024);
  }

  static String mutatePath(String p, Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> p.replace("1", List.of("0", "-1", "2147483648", "99999999999999999999", "NaN", "%00", "1.5").get(r.nextInt(7)));
      case 1 -> p + "/" + "x".repeat(r.nextInt(3000));
      case 2 -> p.replace("fleet.gpu.v1-value", List.of("%2F..%2F", "%25", "a%20b", "%E2%82", "..", "%C0%AE").get(r.nextInt(6)));
      case 3 -> p + "?deleted=true&permanent=true&verbose=true&defaultToGlobal=true";
      case 4 -> p + "/" + "a/".repeat(r.nextInt(200));
      default -> p;
    };
  }

  static String mutateBody(String b, Random r) {
    int at = b.isEmpty() ? 0 : r.nextInt(b.length());
    return switch (r.nextInt(9)) {
      case 0 -> b.substring(0, at);
      case 1 -> "[".repeat(1 + r.nextInt(5000)) + b;
      case 2 -> "{\"schema\":" + "{\"a\":".repeat(1 + r.nextInt(2000)) + "1" + "}".repeat(r.nextInt(2000)) + "}";
      case 3 -> b.replace("\"long\"", List.of("\"NaN\"", "\"lon\"", "{\"type\":\"array\",\"items\":\"x\"}", "[]").get(r.nextInt(4)));
      case 4 -> "{\"schema\":" + List.of("1e309", "-1", "99999999999999999999999999", "null", "true", "[]").get(r.nextInt(6)) + "}";
      case 5 -> "{\"schema\":\"" + "\\\"".repeat(r.nextInt(100)) + "\"}";
      case 6 -> "{\"compatibility\":\"" + List.of("FULL_TRANSITIVE", "full", "", "NaN", "\\u0000").get(r.nextInt(5)) + "\"}";
      case 7 -> b.isEmpty() ? b : b.substring(0, at) + (char) r.nextInt(0x3000) + b.substring(at + 1);
      default -> b;
    };
  }

  static String abbreviate(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "... (" + s.length() + " chars)" : s;
  }
}
