package io.fleetscope.agent.collectors.ckpt;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.http.BodyLimitFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local endpoint: {@code POST /v1/checkpoints} with one JSON object (see {@link CheckpointJson}),
 * bound to 127.0.0.1 only. Answers 202 when buffered, 400 with {@code {"error": "..."}} for bad
 * input, 413 for a body over {@code ckpt.max_body_bytes} (refused before it is read: see
 * {@link BodyLimitFilter}), 429 (Retry-After: 1) when the buffer is full, 405/404 otherwise.
 * {@code GET /v1/health} answers the buffer's state. One small worker thread.
 */
public final class CheckpointServer implements AutoCloseable {

  public static final int DEFAULT_PORT = 18089;
  public static final String PATH = "/v1/checkpoints";

  private static final Logger log = LoggerFactory.getLogger(CheckpointServer.class);

  private final HttpServer server;
  private final ExecutorService worker;
  private final CheckpointBuffer buffer;
  private final LongSupplier clock;
  private final AtomicLong rejectedBad = new AtomicLong();

  public CheckpointServer(int port, CheckpointBuffer buffer, long maxBody, LongSupplier clock) throws IOException {
    this.buffer = buffer;
    this.clock = clock;
    try {
      this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    } catch (java.net.BindException e) {
      throw new IOException("ckpt: cannot listen on 127.0.0.1:" + port + " (" + e.getMessage() + "); set ckpt.port to a free port", e);
    }
    this.worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "ckpt-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(worker);
    BodyLimitFilter limit = new BodyLimitFilter("ckpt", maxBody, m -> {
      rejectedBad.incrementAndGet();
      return error(m + "; post one event per request");
    });
    server.createContext(PATH, this::checkpoints).getFilters().add(limit);
    server.createContext("/v1/health", this::health).getFilters().add(limit);
    server.createContext("/", ex -> {
      try (ex) {
        send(ex, 404, error("no such path; POST checkpoint events to " + PATH));
      }
    }).getFilters().add(limit);
    server.start();
    log.info("ckpt endpoint listening address={} port={} path={}", server.getAddress().getAddress().getHostAddress(), port(), PATH);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public long rejectedBad() {
    return rejectedBad.get();
  }

  private void checkpoints(HttpExchange ex) throws IOException {
    try (ex) {
      if (!ex.getRequestURI().getPath().equals(PATH)) {
        send(ex, 404, error("no such path; POST checkpoint events to " + PATH));
        return;
      }
      if (!ex.getRequestMethod().equals("POST")) {
        ex.getResponseHeaders().add("Allow", "POST");
        send(ex, 405, error("use POST with a JSON body"));
        return;
      }
      byte[] body = ex.getRequestBody().readAllBytes(); // at most maxBody: the BodyLimitFilter refused larger ones
      long now = clock.getAsLong();
      boolean queued;
      try {
        queued = buffer.offer(CheckpointJson.parse(body), now);
      } catch (IllegalArgumentException e) {
        rejectedBad.incrementAndGet();
        log.warn("ckpt rejected status=400 reason=\"{}\"", e.getMessage());
        send(ex, 400, error(e.getMessage()));
        return;
      }
      if (!queued) {
        log.warn("ckpt rejected status=429 reason=\"buffer full\" queued={}", buffer.size());
        ex.getResponseHeaders().add("Retry-After", "1");
        send(ex, 429, error("event buffer full (" + buffer.size() + " events waiting for the agent); retry later"));
        return;
      }
      send(ex, 202, "{\"accepted\":true,\"received_ts\":" + now + "}");
    }
  }

  private void health(HttpExchange ex) throws IOException {
    try (ex) {
      send(ex, 200, "{\"queued\":" + buffer.size() + ",\"accepted\":" + buffer.accepted()
          + ",\"rejected_full\":" + buffer.rejectedFull() + ",\"rejected_bad\":" + rejectedBad.get() + "}");
    }
  }

  static String error(String message) {
    return "{\"error\":" + quote(message) + "}";
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  private static void send(HttpExchange ex, int status, String json) throws IOException {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    worker.shutdownNow();
  }
}
