package io.fleetscope.schemas.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.http.BodyLimitFilter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code GET /metrics}: a registry in the Prometheus text exposition format (0.0.4), on a JDK
 * {@code HttpServer} the component already runs (console, correlator, registry) or on one of its
 * own ({@link MetricsServer}, the sink). GET only; a request body over {@value #MAX_BODY_BYTES}
 * bytes is refused with 413 before it is read.
 */
public final class MetricsEndpoint implements HttpHandler {
  /** The path Prometheus scrapes. */
  public static final String PATH = "/metrics";
  /** The largest request body accepted (the endpoint serves GET only). */
  public static final long MAX_BODY_BYTES = 4096;

  private final PrometheusRegistry registry;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  public MetricsEndpoint(PrometheusRegistry registry) {
    this.registry = registry;
  }

  /** Adds {@code /metrics} serving {@code registry} to {@code server} (before it starts). */
  public static void addTo(HttpServer server, PrometheusRegistry registry) {
    server.createContext(PATH, new MetricsEndpoint(registry)).getFilters()
        .add(new BodyLimitFilter("metrics", MAX_BODY_BYTES));
  }

  /** The registry's current samples as exposition text (what a scrape gets). */
  public String render() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    writer.write(out, registry.scrape(), io.prometheus.metrics.config.EscapingScheme.UNDERSCORE_ESCAPING);
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        ex.sendResponseHeaders(405, -1);
        return;
      }
      if (!PATH.equals(ex.getRequestURI().getPath())) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body = render().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", writer.getContentType());
      if ("HEAD".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(200, -1);
        return;
      }
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(body);
      }
    }
  }
}
