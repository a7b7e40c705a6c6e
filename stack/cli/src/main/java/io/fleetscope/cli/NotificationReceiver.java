package io.fleetscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local stand-in for a pager and a ticket system: receives Alertmanager's webhook notifications
 * on 127.0.0.1 ({@code POST /pager}, {@code POST /ticket}, as deploy/alertmanager/alertmanager.yml
 * routes them), writes one line per notification to {@code notifications.log} and to the console.
 * It is how the demo shows how often someone would have been paged.
 */
final class NotificationReceiver implements AutoCloseable {
  static final int DEFAULT_PORT = 19095;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Path log;
  private final PrintStream out;
  final AtomicLong pages = new AtomicLong();
  final AtomicLong tickets = new AtomicLong();

  NotificationReceiver(int port, Path log, PrintStream out) throws IOException {
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    this.log = log;
    this.out = out;
    Files.createDirectories(log.getParent());
    server.createContext("/", this::handle);
  }

  NotificationReceiver start() {
    server.start();
    if (out != null) {
      out.printf("receiver listening address=%s port=%d%n", server.getAddress().getAddress().getHostAddress(),
          server.getAddress().getPort());
    }
    return this;
  }

  private void handle(HttpExchange ex) throws IOException {
    String receiver = ex.getRequestURI().getPath().replaceFirst("^/", "");
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String line;
    try {
      JsonNode n = JSON.readTree(body);
      StringBuilder sb = new StringBuilder();
      sb.append("notification ts=").append(Instant.now()).append(" receiver=").append(receiver)
          .append(" status=").append(n.path("status").asText()).append(" alerts=").append(n.path("alerts").size());
      for (JsonNode a : n.path("alerts")) {
        sb.append(" [").append(a.path("status").asText()).append(' ').append(AlertText.describe(a));
        sb.append(']');
      }
      line = sb.toString();
      if ("pager".equals(receiver)) {
        pages.incrementAndGet();
      } else if ("ticket".equals(receiver)) {
        tickets.incrementAndGet();
      }
    } catch (IOException e) {
      line = "notification ts=" + Instant.now() + " receiver=" + receiver + " status=unparseable error=\"" + e.getMessage() + "\"";
    }
    Files.writeString(log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (out != null) {
      out.println(line);
    }
    ex.sendResponseHeaders(200, -1);
    try (OutputStream os = ex.getResponseBody()) {
      os.flush();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
