package io.fleetscope.agent.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.ckpt.CheckpointBuffer;
import io.fleetscope.agent.collectors.ckpt.CheckpointServer;
import io.fleetscope.agent.schedule.MetricsServer;
import io.fleetscope.agent.schedule.SelfMetrics;
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
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The agent's HTTP endpoints on 127.0.0.1 (checkpoint events, /metrics) under 10,000 hostile
 * requests each: checkpoint JSON mutated (truncated, huge or negative numbers, NaN, timestamps
 * years off, deep nesting, random text), unknown paths and methods. Every request is answered
 * within the client's time limit with a documented status and never 500; a body over the limit
 * is refused with 413 before it is read.
 */
class AgentHttpHostileInputTest {
  static final int TRIES = 10_000;
  static final long CKPT_LIMIT = 16 * 1024;
  static final List<String> EVENTS = AgentParsersHostileInputTest.CHECKPOINT;

  static CheckpointBuffer buffer;
  static CheckpointServer ckpt;
  static MetricsServer metrics;
  static HttpClient http;

  @BeforeContainer
  static void start() throws Exception {
    buffer = new CheckpointBuffer(100_000, 100_000);
    ckpt = new CheckpointServer(0, buffer, CKPT_LIMIT, System::currentTimeMillis);
    SelfMetrics m = new SelfMetrics();
    m.declare("fleetscope_agent_records_total", "counter", "records collected");
    m.inc("fleetscope_agent_records_total", "collector=\"gpu\"", 3);
    metrics = new MetricsServer(0, m);
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterContainer
  static void stop() {
    ckpt.close();
    metrics.close();
  }

  @Property(tries = TRIES)
  void checkpointEndpoint(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String body = Mutations.text(EVENTS, seed);
    String path = List.of(CheckpointServer.PATH, CheckpointServer.PATH, CheckpointServer.PATH, "/v1/health", "/",
        CheckpointServer.PATH + "/x", "/v1/checkpoints%00").get(r.nextInt(7));
    String method = List.of("POST", "POST", "POST", "GET", "PUT", "DELETE").get(r.nextInt(6));
    HttpResponse<String> a = send(ckpt.port(), method, path, body);
    Set<Integer> documented = Set.of(202, 400, 404, 405, 413, 429, 200);
    assertThat(a.statusCode()).as(method + " " + path + " " + body.length() + " chars -> " + a.body()).isIn(documented);
    assertThat(a.body()).startsWith("{");
    if (a.statusCode() == 400 || a.statusCode() == 413) {
      assertThat(a.body()).contains("\"error\":");
    }
    if (a.statusCode() == 202 && r.nextInt(100) == 0) {
      buffer.drain();
    }
  }

  @Property(tries = TRIES)
  void metricsEndpoint(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String path = List.of("/metrics", "/metrics?x=" + "%25".repeat(r.nextInt(10)), "/metrics/../metrics", "/", "/metricsx",
        "/metrics/" + "a".repeat(r.nextInt(4000))).get(r.nextInt(6));
    String method = List.of("GET", "GET", "HEAD", "POST", "DELETE").get(r.nextInt(5));
    String body = r.nextInt(4) == 0 ? "x".repeat(r.nextInt(8000)) : "";
    HttpResponse<String> a = send(metrics.port(), method, path, body);
    assertThat(a.statusCode()).isIn(200, 404, 413);
    if (a.statusCode() == 200 && method.equals("GET")) {
      assertThat(a.body()).contains("fleetscope_agent_records_total{collector=\"gpu\"} 3");
    }
    if (body.length() > MetricsServer.MAX_BODY_BYTES) {
      assertThat(a.statusCode()).isIn(404, 413);
    }
  }

  @Example
  void bodiesOverTheLimitsAreRefusedWith413BeforeTheyAreRead() throws Exception {
    for (int port : new int[] {ckpt.port(), metrics.port()}) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        s.setSoTimeout(5000);
        OutputStream out = s.getOutputStream();
        String path = port == ckpt.port() ? CheckpointServer.PATH : "/metrics";
        out.write(("POST " + path + " HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 413");
      }
    }
    HttpResponse<String> a = send(ckpt.port(), "POST", CheckpointServer.PATH, "{\"job\":\"" + "x".repeat((int) CKPT_LIMIT) + "\"}");
    assertThat(a.statusCode()).isEqualTo(413);
    assertThat(a.body()).contains("larger than 16384 bytes");
  }

  static HttpResponse<String> send(int port, String method, String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5))
        .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.ofString());
  }
}
