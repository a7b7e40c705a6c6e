package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP sinks against a local HTTP receiver that records what it gets. */
class HttpAlertSinkTest {
  private HttpServer receiver;
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private final OutboundAlert alert = new OutboundAlert("aa", "firing", Map.of("alertname", "GpuXid", "cluster", "c1"),
      Map.of("summary", "xid"), Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T10:04:00Z"), "g");

  @BeforeEach
  void start() throws Exception {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/", ex -> {
      paths.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " " + ex.getRequestHeaders().getFirst("Content-Type"));
      bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      byte[] b = (status == 200 ? "" : "{\"error\":\"boom\"}").getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
      ex.getResponseBody().write(b);
      ex.close();
    });
    receiver.start();
  }

  @AfterEach
  void stop() {
    receiver.stop(0);
  }

  private String base() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort();
  }

  @Test
  void alertmanagerSinkPostsTheV2Array() throws Exception {
    HttpAlertSink sink = HttpAlertSink.alertmanager(base() + "/", Duration.ofSeconds(5));
    sink.send(List.of(alert)).get(10, TimeUnit.SECONDS);
    assertThat(paths).containsExactly("POST /api/v2/alerts application/json");
    assertThat(bodies.get(0)).isEqualTo(AlertPayloads.alertmanagerV2(List.of(alert)));
    assertThat(sink.describe()).isEqualTo("alertmanager=" + base());
  }

  @Test
  void webhookSinkPostsAlertmanagersWebhookPayload() throws Exception {
    HttpAlertSink sink = HttpAlertSink.webhook(base() + "/hook", "fleetscope", "http://x/", Duration.ofSeconds(5));
    sink.send(List.of(alert)).get(10, TimeUnit.SECONDS);
    assertThat(paths).containsExactly("POST /hook application/json");
    JsonNode n = new ObjectMapper().readTree(bodies.get(0));
    assertThat(n.get("version").asText()).isEqualTo("4");
    assertThat(n.get("alerts").get(0).get("labels").get("alertname").asText()).isEqualTo("GpuXid");
  }

  @Test
  void aNon2xxAnswerFailsWithStatusAndBody() {
    status = 500;
    HttpAlertSink sink = HttpAlertSink.alertmanager(base(), Duration.ofSeconds(5));
    assertThatThrownBy(() -> sink.send(List.of(alert)).get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("HTTP 500 from " + base() + "/api/v2/alerts: {\"error\":\"boom\"}");
  }

  @Test
  void anUnreachableTargetFailsTheFuture() {
    int port = receiver.getAddress().getPort();
    receiver.stop(0);
    HttpAlertSink sink = HttpAlertSink.alertmanager("http://127.0.0.1:" + port, Duration.ofSeconds(2));
    assertThatThrownBy(() -> sink.send(List.of(alert)).get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(java.net.ConnectException.class);
  }
}
