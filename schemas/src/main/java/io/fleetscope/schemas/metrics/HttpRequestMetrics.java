package io.fleetscope.schemas.metrics;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;

/**
 * Counts the requests of a JDK {@code HttpServer} context and times them, as
 * {@code fleetscope_<component>_http_requests_total{route,method,code}} and
 * {@code fleetscope_<component>_http_request_duration_seconds{route}} (a histogram); errors are the
 * requests with a 4xx or 5xx {@code code}, and {@code fleetscope_<component>_http_errors_total{route,code}}
 * counts them apart for alerting. The {@code route} label is the path cut to its first
 * {@code routeSegments} segments ({@code /api/gpus/n1/0} -> {@code /api/gpus}) and {@code unmatched}
 * for a 404, so a client trying paths cannot grow the series without bound.
 */
public final class HttpRequestMetrics extends Filter {
  private static final double[] BUCKETS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final Counter requests;
  private final Counter errors;
  private final Histogram duration;
  private final int routeSegments;

  /** Registers the three metrics of {@code component} (e.g. {@code console}) in {@code registry}. */
  public HttpRequestMetrics(PrometheusRegistry registry, String component, int routeSegments) {
    String prefix = MetricNames.prefix(component);
    this.routeSegments = routeSegments;
    this.requests = Counter.builder().name(prefix + "http_requests_total")
        .help("HTTP requests answered, by route, method and status code").labelNames("route", "method", "code")
        .register(registry);
    this.errors = Counter.builder().name(prefix + "http_errors_total")
        .help("HTTP requests answered with a 4xx or 5xx status, by route and status code").labelNames("route", "code")
        .register(registry);
    this.duration = Histogram.builder().name(prefix + "http_request_duration_seconds")
        .help("Time from a request's arrival to its answer, by route").labelNames("route")
        .classicUpperBounds(BUCKETS).classicOnly().register(registry);
  }

  @Override
  public void doFilter(HttpExchange ex, Chain chain) throws IOException {
    long t0 = System.nanoTime();
    try {
      chain.doFilter(ex);
    } finally {
      int code = ex.getResponseCode();
      String route = route(ex.getRequestURI().getPath(), code, routeSegments);
      String method = switch (ex.getRequestMethod()) {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH" -> ex.getRequestMethod();
        default -> "other";
      };
      String c = code < 0 ? "none" : Integer.toString(code);
      requests.labelValues(route, method, c).inc();
      if (code >= 400 || code < 0) {
        errors.labelValues(route, c).inc();
      }
      duration.labelValues(route).observe((System.nanoTime() - t0) / 1e9);
    }
  }

  /** The route label of a request for {@code path} answered with {@code code}. */
  static String route(String path, int code, int segments) {
    if (code == 404 || path == null || !path.startsWith("/")) {
      return "unmatched";
    }
    int end = 0;
    for (int i = 0; i < segments; i++) {
      int next = path.indexOf('/', end + 1);
      if (next < 0) {
        end = path.length();
        break;
      }
      end = next;
    }
    String r = end == 0 ? "/" : path.substring(0, end);
    return r.length() > 64 || !r.matches("[/A-Za-z0-9._-]*") ? "unmatched" : r;
  }

  @Override
  public String description() {
    return "request counts and latency as Prometheus metrics";
  }
}
