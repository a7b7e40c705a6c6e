package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The console's HTTP server on 127.0.0.1 under 10,000 hostile requests (its database unreachable,
 * so every query path answers 503): every API path with query parameters out of range, NaN, huge
 * or not numbers at all, unknown paths, other methods, bodies. Every request is answered within
 * the client's time limit with a documented status and a JSON error; never 500.
 */
class ConsoleHostileHttpTest {
  static final int TRIES = 10_000;
  static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> PATHS = List.of("/", "/index.html", "/api/health", "/api/summary", "/api/incidents",
      "/api/anomalies", "/api/gpus/hottest", "/api/thermal", "/api/rails", "/api/nope", "/api/", "/api/heatmap", "/api/gpu",
      "/api/rails/history", "/api/incidents/recent", "/api/incident", "/api/checkpoints", "/assets/uPlot.min.css",
      "/api/job/incidents");
  static final List<String> PARAMS = List.of("limit", "minutes", "x", "limit", "node", "gpu", "last", "from", "to", "metric",
      "fingerprint", "job");
  static final List<String> VALUES = List.of("1h", "400d", "2026-03-01T10:00:00Z", "risk", "n1", "10", "0", "-1", "NaN", "1e309", "99999999999999999999", "2147483648",
      "", "%00", "%E2%82", "1.5", "0x10", "+5", "%2B5", "5%20", "x".repeat(3000));

  static ConsoleServer server;
  static HttpClient http;

  @BeforeContainer
  static void start() throws Exception {
    ConsoleConfig c = ConsoleConfig.defaults().withPort(0).withJdbc("jdbc:postgresql://127.0.0.1:1/none", "nobody");
    server = new ConsoleServer(c).start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterContainer
  static void stop() {
    server.close();
  }

  @Property(tries = TRIES)
  void everyRequestGetsADocumentedAnswer(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String path = PATHS.get(r.nextInt(PATHS.size()));
    StringBuilder q = new StringBuilder();
    for (int i = r.nextInt(4); i > 0; i--) {
      q.append(q.length() == 0 ? "?" : "&").append(PARAMS.get(r.nextInt(PARAMS.size())))
          .append(r.nextInt(8) == 0 ? "" : "=").append(VALUES.get(r.nextInt(VALUES.size())));
    }
    String method = List.of("GET", "GET", "GET", "POST", "HEAD", "DELETE").get(r.nextInt(6));
    String body = r.nextInt(5) == 0 ? "{\"a\":" + "[".repeat(r.nextInt(6000)) : "";
    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create(server.url() + path + q))
        .timeout(Duration.ofSeconds(10))
        .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.ofString());
    String what = method + " " + path + q + " body=" + body.length() + " -> " + a.statusCode() + " " + a.body();
    assertThat(a.statusCode()).as(what).isIn(200, 400, 404, 405, 413, 503);
    if (body.length() > ConsoleServer.DEFAULT_MAX_BODY_BYTES) {
      assertThat(a.statusCode()).as(what).isEqualTo(413);
    }
    if (a.statusCode() != 200 && !method.equals("HEAD")) {
      assertThat(JSON.readTree(a.body()).path("error").asText()).as(what).isNotBlank();
    }
  }

  @Example
  void aBodyOverTheLimitIsRefusedWith413BeforeItIsRead() throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), URI.create(server.url()).getPort())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write("POST /api/summary HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 413");
    }
  }
}
