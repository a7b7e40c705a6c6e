package io.fleetscope.streams;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.avro.Alert;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.schemas.http.BodyLimitFilter;
import io.fleetscope.schemas.metrics.HttpRequestMetrics;
import io.fleetscope.schemas.metrics.MetricsEndpoint;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.fleetscope.schemas.cli.ListenAddress;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active incidents as JSON, read from the {@code incidents} state store (interactive queries),
 * on 127.0.0.1:
 * <ul>
 *   <li>{@code GET /metrics} the correlator's Prometheus metrics ({@link CorrelatorMetrics}), when given;
 *   <li>{@code GET /api/v1/incidents} firing incidents ({@code ?status=all}: resolved ones too), newest first;
 *   <li>{@code GET /api/v1/incidents/{fingerprint}} one incident, or 404;
 * </ul>
 * Each incident has exactly the fields of the fleet.alerts.v1 Avro record. 503 while the store is
 * not queryable (starting, rebalancing). A request body over the limit (default
 * {@value #DEFAULT_MAX_BODY_BYTES} bytes: the API is GET only) is refused with 413 before it is read.
 */
public final class IncidentHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IncidentHttpServer.class);
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String PREFIX = "/api/v1/incidents";
  /** The largest request body accepted. */
  public static final long DEFAULT_MAX_BODY_BYTES = 4096;

  private final HttpServer server;
  private final Supplier<ReadOnlyKeyValueStore<String, Alert>> store;

  public IncidentHttpServer(int port, Supplier<ReadOnlyKeyValueStore<String, Alert>> store) throws IOException {
    this(ListenAddress.LOOPBACK, port, store, DEFAULT_MAX_BODY_BYTES);
  }

  public IncidentHttpServer(int port, Supplier<ReadOnlyKeyValueStore<String, Alert>> store, long maxBodyBytes)
      throws IOException {
    this(ListenAddress.LOOPBACK, port, store, maxBodyBytes);
  }

  /** Listens on {@code address} (an IP literal, see {@link ListenAddress}) and {@code port}. */
  public IncidentHttpServer(String address, int port, Supplier<ReadOnlyKeyValueStore<String, Alert>> store)
      throws IOException {
    this(address, port, store, DEFAULT_MAX_BODY_BYTES);
  }

  /** As above, refusing request bodies over maxBodyBytes with 413. */
  public IncidentHttpServer(String address, int port, Supplier<ReadOnlyKeyValueStore<String, Alert>> store,
      long maxBodyBytes) throws IOException {
    this(address, port, store, maxBodyBytes, null);
  }

  /**
   * As above, and with {@code metrics} not null: {@code GET /metrics} serves it, and the incidents
   * API's requests are counted and timed in it ({@code fleetscope_correlator_http_*}).
   */
  public IncidentHttpServer(String address, int port, Supplier<ReadOnlyKeyValueStore<String, Alert>> store,
      long maxBodyBytes, PrometheusRegistry metrics) throws IOException {
    this.store = store;
    this.server = HttpServer.create(new InetSocketAddress(ListenAddress.parse("correlator.http_address", address), port), 0);
    var api = server.createContext(PREFIX, this::handle);
    if (metrics != null) {
      api.getFilters().add(new HttpRequestMetrics(metrics, "correlator", 3));
      MetricsEndpoint.addTo(server, metrics);
    }
    api.getFilters().add(new BodyLimitFilter("incidents-api", maxBodyBytes));
    server.setExecutor(Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "incidents-http");
      t.setDaemon(true);
      return t;
    }));
  }

  public IncidentHttpServer start() {
    server.start();
    log.info("incidents api listening address={} port={} path={}", server.getAddress().getAddress().getHostAddress(), port(), PREFIX);
    return this;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange ex) throws IOException {
    try {
      if (!"GET".equals(ex.getRequestMethod())) {
        send(ex, 405, error("only GET is supported"));
        return;
      }
      String path = ex.getRequestURI().getPath();
      String rest = path.length() > PREFIX.length() ? path.substring(PREFIX.length()) : "";
      ReadOnlyKeyValueStore<String, Alert> s;
      try {
        s = store.get();
      } catch (InvalidStateStoreException e) {
        send(ex, 503, error("incidents store not queryable yet: " + e.getMessage()));
        return;
      }
      if (rest.isEmpty() || rest.equals("/")) {
        String q = ex.getRequestURI().getQuery();
        boolean all = q != null && q.contains("status=all");
        List<Alert> list = new ArrayList<>();
        try (KeyValueIterator<String, Alert> it = s.all()) {
          it.forEachRemaining(kv -> {
            if (all || AlertStatus.isFiring(kv.value.getStatus())) {
              list.add(kv.value);
            }
          });
        }
        list.sort(Comparator.comparingLong(Alert::getTs).reversed().thenComparing(Alert::getFingerprint));
        ObjectNode o = F.objectNode();
        o.put("count", list.size());
        ArrayNode arr = o.putArray("incidents");
        list.forEach(a -> arr.add(JsonLines.toNode(a)));
        send(ex, 200, o);
        return;
      }
      String fp = rest.substring(1);
      try (KeyValueIterator<String, Alert> it = s.all()) {
        while (it.hasNext()) {
          Alert a = it.next().value;
          if (a.getFingerprint().equals(fp)) {
            send(ex, 200, JsonLines.toNode(a));
            return;
          }
        }
      }
      send(ex, 404, error("no incident with fingerprint " + fp));
    } catch (InvalidStateStoreException e) {
      send(ex, 503, error("incidents store not queryable: " + e.getMessage()));
    } catch (RuntimeException e) {
      log.warn("incidents api error path={} reason=\"{}\"", ex.getRequestURI().getPath(), e.toString());
      send(ex, 500, error(e.toString()));
    }
  }

  private static ObjectNode error(String msg) {
    ObjectNode o = F.objectNode();
    o.put("error", msg);
    return o;
  }

  private static void send(HttpExchange ex, int status, ObjectNode body) throws IOException {
    byte[] b = body.toString().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
