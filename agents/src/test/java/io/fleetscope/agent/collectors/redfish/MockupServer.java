package io.fleetscope.agent.collectors.redfish;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server (JDK HttpServer on 127.0.0.1, free port) serving a DMTF Redfish mockup
 * directory the way the DMTF mockup server does: {@code GET /redfish/v1/X} answers
 * {@code <dir>/X/index.json}. Requires HTTP basic auth with the given user and password.
 */
public final class MockupServer implements AutoCloseable {

  private final HttpServer server;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger unauthorized = new AtomicInteger();

  public MockupServer(Path mockupDir, String user, String password) throws IOException {
    String expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/redfish", ex -> {
      requests.incrementAndGet();
      try (ex) {
        if (!expected.equals(ex.getRequestHeaders().getFirst("Authorization"))) {
          unauthorized.incrementAndGet();
          ex.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"redfish\"");
          send(ex, 401, "{\"error\":\"unauthorized\"}");
          return;
        }
        String rel = ex.getRequestURI().getPath().replaceFirst("^/redfish/v1/?", "");
        Path file = mockupDir.resolve(rel).resolve("index.json").normalize();
        if (!file.startsWith(mockupDir) || !Files.isRegularFile(file)) {
          send(ex, 404, "{\"error\":\"not found\"}");
          return;
        }
        send(ex, 200, Files.readString(file));
      }
    });
    server.start();
  }

  /** Serves a mockup that is a test resource directory, e.g. {@code /pdu/dmtf-public-pdu}. */
  public static MockupServer ofResource(String resourceDir, String user, String password) throws IOException {
    try {
      return new MockupServer(Path.of(MockupServer.class.getResource(resourceDir).toURI()), user, password);
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public int requests() {
    return requests.get();
  }

  public int unauthorized() {
    return unauthorized.get();
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
