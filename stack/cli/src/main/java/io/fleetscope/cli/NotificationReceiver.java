package io.fleetscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.http.BodyLimitFilter;
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
import java.util.function.BiConsumer;

/**
 * The local stand-in for a pager and a ticket system: receives Alertmanager's webhook notifications
 * on 127.0.0.1 ({@code POST /pager}, {@code POST /ticket}, as deploy/alertmanager/alertmanager.yml
 * routes them), writes one line per notification to {@code notifications.log} and to the console.
 * It is how the demo shows how often someone would have been paged. A body over the limit (default
 * {@value #DEFAULT_MAX_BODY_BYTES} bytes, a few thousand alerts) is refused with 413 before it is read.
 */
final class NotificationReceiver implements AutoCloseable {
  static final int DEFAULT_PORT = 19095;
  /** The largest notification accepted. */
  static final long DEFAULT_MAX_BODY_BYTES = 4L * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Path log;
  private final PrintStream out;
  final AtomicLong pages = new AtomicLong();
  final AtomicLong tickets = new AtomicLong();
  private volatile BiConsumer<String, JsonNode> listener = (receiver, body) -> { };

  NotificationReceiver(int port, Path log, PrintStream out) throws IOException {
    this(port, log, out, DEFAULT_MAX_BODY_BYTES);
  }

  NotificationReceiver(int port, Path log, PrintStream out, long maxBodyBytes) throws IOException {
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    this.log = log;
    this.out = out;
    Files.createDirectories(log.getParent());
    server.createContext("/", this::handle).getFilters().add(new BodyLimitFilter("receiver", maxBodyBytes));
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** Also hands every parsed notification (receiver name, webhook body) to {@code l}. */
  NotificationReceiver onNotification(BiConsumer<String, JsonNode> l) {
    this.listener = l;
    return this;
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
      listener.accept(receiver, n);
      if ("pager".equals(receiver)) {
        pages.incrementAndGet();
      } else if ("ticket".equals(receiver)) {
        tickets.incrementAndGet();
      }
    } catch (IOException e) {
      line = "notification ts=" + Instant.now() + " receiver=" + receiver + " status=unparseable error=\"" + e.getMessage() + "\"";
    }
    line = oneLine(line);
    // getBytes replaces what UTF-8 cannot encode (a lone surrogate escaped in the JSON), where writeString throws
    Files.write(log, (line + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (out != null) {
      out.println(line);
    }
    ex.sendResponseHeaders(200, -1);
    try (OutputStream os = ex.getResponseBody()) {
      os.flush();
    }
  }

  /**
   * The line with control characters and Unicode line separators escaped (a line feed as backslash-n, U+2028 as backslash-u2028),
   * so that text inside a notification can neither split its line nor forge another.
   */
  static String oneLine(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
