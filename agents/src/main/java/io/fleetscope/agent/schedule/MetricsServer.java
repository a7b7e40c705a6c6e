package io.fleetscope.agent.schedule;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves {@link SelfMetrics} at {@code http://127.0.0.1:PORT/metrics} (JDK HttpServer, one thread). */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private final HttpServer server;

  public MetricsServer(int port, SelfMetrics metrics) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8);
    server.createContext("/metrics", ex -> {
      byte[] body = metrics.render().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(body);
      }
    });
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
