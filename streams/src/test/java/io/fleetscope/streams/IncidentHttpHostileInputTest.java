package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Alert;
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
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The correlator's incidents API on 127.0.0.1, over the topology's real incidents store, under
 * 10,000 hostile requests: fingerprints cut, overlong or escaped, query strings, other methods,
 * bodies. Every request is answered within the client's time limit with a documented status and a
 * JSON body; never 500.
 */
class IncidentHttpHostileInputTest {
  static final int TRIES = 10_000;
  static final ObjectMapper JSON = new ObjectMapper();
  static Harness harness;
  static IncidentHttpServer server;
  static HttpClient http;
  static String fingerprint;

  @BeforeContainer
  static void start() throws Exception {
    harness = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0"));
    harness.pipe(Fleet.coolantFlowLow(T0), T0);
    harness.pipeAll(Fleet.rack07Hot(T0), T0);
    KeyValueStore<String, Alert> store = harness.driver.getKeyValueStore(IncidentProcessor.INCIDENTS);
    server = new IncidentHttpServer(0, () -> store).start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    fingerprint = JSON.readTree(get("/api/v1/incidents").body()).get("incidents").get(0).get("fingerprint").asText();
  }

  @AfterContainer
  static void stop() throws Exception {
    server.close();
    harness.close();
  }

  static HttpResponse<String> get(String pathAndQuery) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Property(tries = TRIES)
  void everyRequestGetsADocumentedAnswer(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String fp = switch (r.nextInt(6)) {
      case 0 -> fingerprint;
      case 1 -> fingerprint.substring(0, r.nextInt(fingerprint.length()));
      case 2 -> fingerprint + "x".repeat(r.nextInt(4000));
      case 3 -> List.of("%00", "%2F", "..", "%E2%82", "%25", "null", "-1").get(r.nextInt(7));
      case 4 -> fingerprint + "/" + fingerprint;
      default -> "";
    };
    String path = "/api/v1/incidents" + (fp.isEmpty() && r.nextBoolean() ? "" : "/" + fp)
        + List.of("", "?status=all", "?status=", "?status=all&status=firing", "?" + "a=1&".repeat(r.nextInt(500))).get(r.nextInt(5));
    String method = List.of("GET", "GET", "GET", "POST", "DELETE", "PUT").get(r.nextInt(6));
    String body = r.nextInt(5) == 0 ? "x".repeat(r.nextInt(10_000)) : "";
    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10))
        .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.ofString());
    String what = method + " " + path + " body=" + body.length() + " -> " + a.statusCode() + " " + a.body();
    assertThat(a.statusCode()).as(what).isIn(200, 404, 405, 413);
    if (body.length() > IncidentHttpServer.DEFAULT_MAX_BODY_BYTES) {
      assertThat(a.statusCode()).as(what).isEqualTo(413);
    }
    assertThat(JSON.readTree(a.body()).isObject()).as(what).isTrue();
  }

  @Example
  void aBodyOverTheLimitIsRefusedWith413BeforeItIsRead() throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write("POST /api/v1/incidents HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 413");
    }
  }
}
