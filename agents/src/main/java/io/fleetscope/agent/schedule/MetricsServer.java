package io.fleetscope.agent.schedule;

import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.http.BodyLimitFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link SelfMetrics} at {@code http://ADDRESS:PORT/metrics} (127.0.0.1 unless {@code metrics.address} says otherwise) (JDK HttpServer, one thread). A request
 * body over {@value #MAX_BODY_BYTES} bytes (it serves GET only) is refused with 413 before it is read.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  /** The largest request body accepted. */
  public static final long MAX_BODY_BYTES = 4096;
  private final HttpServer server;

  public MetricsServer(int port, SelfMetrics metrics) throws IOException {
    this(InetAddress.getLoopbackAddress(), port, metrics);
  }

  /** Serves on {@code address} (the agent's {@code metrics.address}) and {@code port}. */
  public MetricsServer(InetAddress address, int port, SelfMetrics metrics) throws IOException {
    server = HttpServer.create(new InetSocketAddress(address, port), 8);
    var ctx = server.createContext("/metrics", ex -> {
      byte[] body = metrics.render().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(body);
      }
    });
    ctx.getFilters().add(new BodyLimitFilter("metrics", MAX_BODY_BYTES));
    server.setExecutor(null);
    server.start();
    log.info("metrics listening address={} port={}", server.getAddress().getAddress().getHostAddress(), port());
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
