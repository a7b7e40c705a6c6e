package io.fleetscope.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.http.BodyLimitFilter;
import io.fleetscope.schemas.cli.ListenAddress;
import io.fleetscope.schemas.metrics.HttpRequestMetrics;
import io.fleetscope.schemas.metrics.MetricsEndpoint;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console: a web page and a JSON API on 127.0.0.1.
 *
 * <pre>
 * GET /                      the page (polls the API every 5 s)
 * GET /api/health            {"database":"ok"} or 503 with the reason
 * GET /api/summary           nodes and GPUs reporting, hottest temperature, firing incidents, anomalies (1 h)
 * GET /api/incidents         active incidents (the correlator's state when reachable, else the alerts table)
 * GET /api/anomalies?minutes=60&amp;limit=200
 * GET /api/gpus/hottest?limit=10
 * GET /api/thermal?limit=10  highest thermal-risk GPUs
 * GET /api/rails             latest per-rail bandwidth
 * GET /api/rails/nvlink      NVLink tx/rx throughput per node over the last 10 minutes (Gbit/s, like the rails)
 * GET /api/heatmap, /api/gpu, /api/rails/history, /api/incidents/recent, /api/incident, /api/checkpoints:
 *                            see {@link ConsoleApi}
 * </pre>
 *
 * <p>It takes no request bodies: one over {@code --max-body-bytes} (default
 * {@value #DEFAULT_MAX_BODY_BYTES}) is refused with 413 before it is read.
 */
public final class ConsoleServer implements AutoCloseable {
  static final Logger log = LoggerFactory.getLogger(ConsoleServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The largest request body accepted (the console serves GET only). */
  public static final long DEFAULT_MAX_BODY_BYTES = 4096;
  /** A query that runs longer is cancelled by the server (answered 503, "ask for a shorter range"). */
  static final int STATEMENT_TIMEOUT_MS = 20_000;

  private final ConsoleConfig config;
  private final HttpServer server;
  /** Served at {@code GET /metrics}: {@code fleetscope_console_http_*} (requests, latency, errors by route). */
  private final PrometheusRegistry metrics = new PrometheusRegistry();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ConsoleApi api;

  public ConsoleServer(ConsoleConfig config) throws IOException {
    this(config, DEFAULT_MAX_BODY_BYTES);
  }

  public ConsoleServer(ConsoleConfig config, long maxBodyBytes) throws IOException {
    this.config = config;
    this.api = new ConsoleApi(this::connect, config.staleAfter());
    try {
      this.server = HttpServer.create(new InetSocketAddress(ListenAddress.parse("console --http-address", config.address()), config.port()), 0);
    } catch (java.net.BindException e) {
      throw new PortInUseException(config.port(), e);
    }
    server.setExecutor(Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "console-http");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", this::handle).getFilters().addAll(List.of(
        new HttpRequestMetrics(metrics, "console", 2), new BodyLimitFilter("console", maxBodyBytes)));
    MetricsEndpoint.addTo(server, metrics);
  }

  public ConsoleServer start() {
    server.start();
    log.info("console listening address={} port={} url={}", server.getAddress().getAddress().getHostAddress(),
        server.getAddress().getPort(), url());
    return this;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    Map<String, String> q = query(ex.getRequestURI());
    try {
      if (!"GET".equals(ex.getRequestMethod())) {
        send(ex, 405, "application/json", "{\"error\":\"only GET\"}");
        return;
      }
      switch (path) {
        case "/":
        case "/index.html":
          send(ex, 200, "text/html; charset=utf-8", page());
          return;
        case "/api/health":
          try (Connection c = connect()) {
            send(ex, 200, "application/json", "{\"database\":\"ok\"}");
          }
          return;
        case "/api/summary":
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.summary(c, config.staleAfter()).toString());
          }
          return;
        case "/api/incidents":
          send(ex, 200, "application/json", incidents().toString());
          return;
        case "/api/anomalies": {
          int minutes = intParam(q, "minutes", 60, 1, 60 * 24 * 31);
          int limit = intParam(q, "limit", 200, 1, 5000);
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.recentAnomalies(c, minutes, limit).toString());
          }
          return;
        }
        case "/api/gpus/hottest": {
          int limit = intParam(q, "limit", 10, 1, 1000);
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.hottestGpus(c, config.staleAfter(), limit).toString());
          }
          return;
        }
        case "/api/thermal": {
          int limit = intParam(q, "limit", 10, 1, 1000);
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.thermalRisk(c, limit).toString());
          }
          return;
        }
        case "/api/rails":
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.rails(c).toString());
          }
          return;
        case "/api/rails/nvlink":
          try (Connection c = connect()) {
            send(ex, 200, "application/json", ConsoleQueries.nvlinkNodes(c).toString());
          }
          return;
        default:
          ConsoleApi.Answer a = api.answer(path, q);
          if (a != null) {
            send(ex, a.status(), a.type(), a.body());
            return;
          }
          send(ex, 404, "application/json", "{\"error\":\"no such path\",\"paths\":[\"/\",\"/api/health\","
              + "\"/api/summary\",\"/api/incidents\",\"/api/anomalies\",\"/api/gpus/hottest\",\"/api/thermal\",\"/api/rails\",\"/api/rails/nvlink\","
              + String.join(",", ConsoleApi.PATHS.stream().map(x -> "\"" + x + "\"").toList()) + "]}");
      }
    } catch (BadParam e) {
      send(ex, 400, "application/json", error(e.getMessage()));
    } catch (FleetQueries.NotFound e) {
      send(ex, 404, "application/json", error(e.getMessage()));
    } catch (SQLException e) {
      log.warn("console query failed path={} sqlstate={} error=\"{}\"", path, e.getSQLState(), e.getMessage());
      send(ex, 503, "application/json", error("database: " + databaseError(e)));
    } catch (RuntimeException e) {
      log.warn("console request failed path={} error={} message=\"{}\"", path, e.getClass().getSimpleName(), e.getMessage());
      send(ex, 500, "application/json", error(e.getClass().getSimpleName() + ": " + e.getMessage()));
    }
  }

  /** The correlator's active incidents when it answers, else the alerts table's view of them. */
  JsonNode incidents() throws SQLException {
    if (config.incidentsUrl() != null && !config.incidentsUrl().isBlank()) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(config.incidentsUrl()))
            .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          JsonNode list = incidentList(JSON.readTree(r.body()));
          if (list != null) {
            ObjectNode o = JSON.createObjectNode();
            o.put("source", "correlator");
            o.set("incidents", list);
            return o;
          }
          log.warn("console correlator answer without an incidents array url={}", config.incidentsUrl());
        }
      } catch (IOException e) {
        log.debug("console correlator unreachable url={} error=\"{}\"", config.incidentsUrl(), e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Connection c = connect()) {
      ObjectNode o = JSON.createObjectNode();
      o.put("source", "alerts-table");
      o.set("incidents", ConsoleQueries.activeIncidents(c));
      return o;
    }
  }

  /** The incident array of the correlator's answer ({@code {"count":N,"incidents":[...]}} or a bare array), or null. */
  static JsonNode incidentList(JsonNode body) {
    JsonNode list = body.isArray() ? body : body.path("incidents");
    return list.isArray() ? list : null;
  }

  private Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", config.dbUser());
    if (!config.dbPassword().isEmpty()) {
      p.setProperty("password", config.dbPassword());
    }
    p.setProperty("connectTimeout", "5");
    p.setProperty("socketTimeout", "30");
    p.setProperty("options", "-c statement_timeout=" + STATEMENT_TIMEOUT_MS);
    p.setProperty("ApplicationName", "fleetscope-console");
    Connection c = DriverManager.getConnection(config.jdbcUrl(), p);
    c.setReadOnly(true);
    return c;
  }

  private static String page() throws IOException {
    try (InputStream in = ConsoleServer.class.getResourceAsStream("/console/index.html")) {
      if (in == null) {
        throw new IOException("console page missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static int intParam(Map<String, String> q, String name, int dflt, int min, int max) {
    String v = q.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int i = Integer.parseInt(v);
      if (i < min || i > max) {
        throw new BadParam(name + " must be between " + min + " and " + max + ", got " + v);
      }
      return i;
    } catch (NumberFormatException e) {
      throw new BadParam(name + " must be a whole number, got '" + v + "'");
    }
  }

  static Map<String, String> query(URI uri) {
    Map<String, String> m = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null) {
      return m;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        m.put(java.net.URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return m;
  }

  /** What a client is told of a database error: its kind, never the server's text (which may quote SQL). */
  static String databaseError(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (state.startsWith("08")) {
      return "unreachable (SQLSTATE " + state + ")";
    }
    if (state.equals("57014")) {
      return "the query took too long (SQLSTATE 57014); ask for a shorter range";
    }
    if (state.startsWith("28")) {
      return "login refused (SQLSTATE " + state + ")";
    }
    return "query failed (SQLSTATE " + (state.isEmpty() ? "unknown" : state) + ")";
  }

  private static String error(String msg) {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", msg);
    return o.toString();
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange ex, int status, String type, byte[] b) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(b);
    }
  }

  static final class BadParam extends RuntimeException {
    BadParam(String m) {
      super(m);
    }
  }

  /** The console's port is taken (often by a console left over from an earlier run): an expected condition. */
  public static final class PortInUseException extends IOException {
    final int port;

    PortInUseException(int port, java.net.BindException cause) {
      super("cannot listen on 127.0.0.1:" + port + " (" + cause.getMessage()
          + "); another process holds the port: stop it or pass --http-port", cause);
      this.port = port;
    }
  }

  /** See {@link ConsoleCommand}: {@code --http-port N --jdbc URL --jdbc-user U --incidents-url URL}. */
  public static void main(String[] args) {
    int rc = CommandLines.execute(new ConsoleCommand(), args);
    if (rc != 0) {
      System.exit(rc);
    }
  }
}
