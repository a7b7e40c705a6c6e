package io.fleetscope.streams;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Posts alerts over HTTP without blocking: to Alertmanager's {@code POST /api/v2/alerts}
 * ({@link #alertmanager}) or to a generic webhook receiver in Alertmanager's webhook format
 * ({@link #webhook}). Any answer other than 2xx fails the future with the status and body.
 */
public final class HttpAlertSink implements AlertSink {
  private final HttpClient http;
  private final URI uri;
  private final Duration timeout;
  private final Function<List<OutboundAlert>, List<String>> bodies;
  private final String name;

  private HttpAlertSink(String name, URI uri, Duration timeout, Function<List<OutboundAlert>, List<String>> bodies) {
    this.name = name;
    this.uri = uri;
    this.timeout = timeout;
    this.bodies = bodies;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  public static HttpAlertSink alertmanager(String baseUrl, Duration timeout) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    return new HttpAlertSink("alertmanager=" + base, URI.create(base + "/api/v2/alerts"), timeout,
        alerts -> List.of(AlertPayloads.alertmanagerV2(alerts)));
  }

  public static HttpAlertSink webhook(String url, String receiver, String externalUrl, Duration timeout) {
    return new HttpAlertSink("webhook=" + url, URI.create(url), timeout,
        alerts -> AlertPayloads.webhook(alerts, receiver, externalUrl));
  }

  @Override
  public CompletableFuture<Void> send(List<OutboundAlert> alerts) {
    List<String> payloads;
    try {
      payloads = bodies.apply(alerts);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFuture.allOf(payloads.stream().map(this::post).toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<Void> post(String body) {
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).thenApply(resp -> {
      if (resp.statusCode() / 100 != 2) {
        String b = resp.body() == null ? "" : resp.body();
        throw new IllegalStateException("HTTP " + resp.statusCode() + " from " + uri + ": "
            + (b.length() > 300 ? b.substring(0, 300) + "..." : b).strip());
      }
      return null;
    });
  }

  @Override
  public String describe() {
    return name;
  }
}
