package io.fleetscope.schemas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> send(String url, String method) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void countsAndTimesRequestsByRouteAndServesThemAtMetrics() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", ex -> {
      int code = ex.getRequestURI().getPath().startsWith("/api/") ? 200 : 404;
      ex.sendResponseHeaders(code, -1);
      ex.close();
    }).getFilters().add(new HttpRequestMetrics(registry, "console", 2));
    MetricsEndpoint.addTo(server, registry);
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort();
      send(base + "/api/gpus/n1/0", "GET");
      send(base + "/api/gpus/n2/1", "GET");
      send(base + "/whatever/" + "x".repeat(100), "GET");
      HttpResponse<String> r = send(base + "/metrics", "GET");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain; version=0.0.4");
      assertThat(r.body())
          .contains("fleetscope_console_http_requests_total{code=\"200\",method=\"GET\",route=\"/api/gpus\"} 2")
          .contains("fleetscope_console_http_requests_total{code=\"404\",method=\"GET\",route=\"unmatched\"} 1")
          .contains("fleetscope_console_http_errors_total{code=\"404\",route=\"unmatched\"} 1")
          .contains("fleetscope_console_http_request_duration_seconds_count{route=\"/api/gpus\"} 2");
      assertThat(send(base + "/metrics", "POST").statusCode()).isEqualTo(405);
      assertThat(send(base + "/metricsx", "GET").statusCode()).isEqualTo(404);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void routeLabelsStayBounded() {
    assertThat(HttpRequestMetrics.route("/api/v1/incidents/abc123", 200, 3)).isEqualTo("/api/v1/incidents");
    assertThat(HttpRequestMetrics.route("/", 200, 2)).isEqualTo("/");
    assertThat(HttpRequestMetrics.route("/subjects/fleet.gpu.v1-value/versions", 200, 1)).isEqualTo("/subjects");
    assertThat(HttpRequestMetrics.route("/api/anything", 404, 2)).isEqualTo("unmatched");
    assertThat(HttpRequestMetrics.route("/api/%22quoted%22", 400, 2)).isEqualTo("unmatched");
  }

  @Test
  void aRealKafkaClientsMetricsBecomeGaugesAndCountersNamedForTheComponent() throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", "127.0.0.1:9"); // nothing is contacted before the first poll
    p.put("client.id", "sink-test");
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      PrometheusRegistry registry = new PrometheusRegistry();
      registry.register(new KafkaClientMetrics("sink").add(consumer::metrics));
      String text = render(registry);
      assertThat(text)
          .contains("# TYPE fleetscope_sink_consumer_fetch_manager_records_lag_max gauge")
          .contains("fleetscope_sink_consumer_fetch_manager_records_lag_max{client_id=\"sink-test\"}")
          .contains("# TYPE fleetscope_sink_consumer_fetch_manager_records_consumed_total counter");
    }
  }

  @Test
  void anUnknownComponentIsRefused() {
    assertThatThrownBy(() -> MetricNames.prefix("sinc")).hasMessageContaining("unknown component 'sinc'");
    assertThat(MetricNames.sanitize("records-lag.max")).isEqualTo("records_lag_max");
  }

  @Test
  void theSinksListenerSaysWhereItListensAndRefusesAHostName() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    try (MetricsServer s = MetricsServer.start("sink", "sink.metrics_address", "127.0.0.1", 0, registry)) {
      assertThat(s.url()).startsWith("http://127.0.0.1:").endsWith("/metrics");
      assertThat(send(s.url(), "GET").statusCode()).isEqualTo(200);
    }
    assertThatThrownBy(() -> MetricsServer.start("sink", "sink.metrics_address", "localhost", 0, registry))
        .hasMessageContaining("sink.metrics_address must be an IP address");
  }

  private static String render(PrometheusRegistry registry) throws Exception {
    return new MetricsEndpoint(registry).render();
  }

}
