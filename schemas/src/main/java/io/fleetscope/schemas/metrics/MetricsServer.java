package io.fleetscope.schemas.metrics;

import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.cli.ListenAddress;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener of its own for {@code GET /metrics}, for a component that serves no HTTP otherwise
 * (the sink). It listens on {@code address} (an IP literal, 127.0.0.1 unless configured, see
 * {@link ListenAddress}) and says so in one log line at start.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private final HttpServer server;

  private MetricsServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Starts serving {@code registry}; {@code setting} names the address and port setting in errors and
   * the log line (e.g. {@code sink.metrics_address}). Port 0 takes a free port.
   */
  public static MetricsServer start(String component, String setting, String address, int port,
      PrometheusRegistry registry) {
    var inet = ListenAddress.parse(setting, address);
    try {
      HttpServer s = HttpServer.create(new InetSocketAddress(inet, port), 16);
      s.setExecutor(Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, component + "-metrics-http");
        t.setDaemon(true);
        return t;
      }));
      MetricsEndpoint.addTo(s, registry);
      s.start();
      log.info("metrics listening component={} address={} port={} path={}", component,
          s.getAddress().getAddress().getHostAddress(), s.getAddress().getPort(), MetricsEndpoint.PATH);
      return new MetricsServer(s);
    } catch (IOException e) {
      throw new UncheckedIOException(component + ": cannot listen for metrics on " + inet.getHostAddress() + ":" + port
          + " (" + setting + "): " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://ADDRESS:PORT/metrics}. */
  public String url() {
    String host = server.getAddress().getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + port() + MetricsEndpoint.PATH;
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
