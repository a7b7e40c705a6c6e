package io.fleetscope.stack.services;

import com.sun.net.httpserver.HttpServer;
import io.fleetscope.schemas.cli.ListenAddress;
import io.fleetscope.schemas.http.BodyLimitFilter;
import io.fleetscope.schemas.metrics.HttpRequestMetrics;
import io.fleetscope.schemas.metrics.MetricNames;
import io.fleetscope.schemas.metrics.MetricsEndpoint;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.fleetscope.stack.services.registry.CompatibilityLevel;
import io.fleetscope.stack.services.registry.KafkaSchemaLog;
import io.fleetscope.stack.services.registry.RegistryAuth;
import io.fleetscope.stack.services.registry.RegistryAuthFilter;
import io.fleetscope.stack.services.registry.RegistryEndpoint;
import io.fleetscope.stack.services.registry.RegistryUsers;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.nio.file.Path;
import io.fleetscope.stack.services.registry.SchemaStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.LocalEndpoints;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A schema registry speaking the Confluent REST subset FleetScope and Confluent's clients use,
 * on the JDK's built-in HTTP server, with its state in the compacted Kafka topic
 * {@code _schemas} (see {@link SchemaStore} for the record format). Default compatibility is
 * BACKWARD. A request body over {@code --max-body-bytes} (default {@value #DEFAULT_MAX_BODY_BYTES}) is
 * refused with 413 (error_code 413) before it is read. {@code GET /metrics} serves its Prometheus
 * metrics ({@code fleetscope_registry_http_requests_total}, {@code _http_request_duration_seconds},
 * {@code _subjects}) without authentication.
 *
 * <p>Run as its own process: {@code java -cp CP io.fleetscope.stack.services.SchemaRegistryServer
 * --kafka 127.0.0.1:19092 --http-port 18081 [--topic _schemas]} ({@code --help} lists the flags).
 */
public final class SchemaRegistryServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SchemaRegistryServer.class);
  /** The largest request body accepted: a schema registration is a few KiB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

  static {
    // The JDK server writes headers and body separately; with Nagle's algorithm on, a client's
    // delayed ACK adds ~40 ms to every answer. Read once, when the JDK's server config loads.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final HttpServer http;
  private final ExecutorService executor;
  private final KafkaSchemaLog schemaLog;
  private final SchemaStore store;
  /** Set when the registry runs in a container (the containers backend of TestServices); else null. */
  private final ServiceContainer container;
  private final int containerPort;

  private SchemaRegistryServer(ServiceContainer container, int port) {
    this.http = null;
    this.executor = null;
    this.schemaLog = null;
    this.store = null;
    this.container = container;
    this.containerPort = port;
  }

  /** A handle on a registry that runs in {@code container} on {@code port} (127.0.0.1). */
  static SchemaRegistryServer inContainer(ServiceContainer container, int port) {
    return new SchemaRegistryServer(container, port);
  }

  private SchemaRegistryServer(HttpServer http, ExecutorService executor, KafkaSchemaLog schemaLog, SchemaStore store) {
    this.container = null;
    this.containerPort = 0;
    this.http = http;
    this.executor = executor;
    this.schemaLog = schemaLog;
    this.store = store;
  }

  /** Starts on 127.0.0.1:port (0: a free port) with its state in {@code _schemas} on that broker. */
  public static SchemaRegistryServer start(String bootstrapServers, int port) {
    return start(bootstrapServers, port, KafkaSchemaLog.DEFAULT_TOPIC);
  }

  /** As {@link #start(String, int)} with another state topic. */
  public static SchemaRegistryServer start(String bootstrapServers, int port, String topic) {
    return start(bootstrapServers, KafkaClientConfig.none(), port, topic, RegistryAuth.open(), DEFAULT_MAX_BODY_BYTES);
  }

  /** As {@link #start(String, int, String)}, refusing request bodies over maxBodyBytes with 413. */
  public static SchemaRegistryServer start(String bootstrapServers, int port, String topic, long maxBodyBytes) {
    return start(bootstrapServers, KafkaClientConfig.none(), port, topic, RegistryAuth.open(), maxBodyBytes);
  }

  /**
   * As {@link #start(String, int, String)}, its state topic reached with {@code client}'s security
   * settings, and its requests checked by {@code auth}.
   */
  public static SchemaRegistryServer start(String bootstrapServers, KafkaClientConfig client, int port, String topic,
      RegistryAuth auth) {
    return start(bootstrapServers, client, port, topic, auth, DEFAULT_MAX_BODY_BYTES);
  }

  /**
   * As {@link #start(String, KafkaClientConfig, int, String, RegistryAuth)}, refusing request bodies over maxBodyBytes with 413.
   */
  public static SchemaRegistryServer start(String bootstrapServers, KafkaClientConfig client, int port, String topic,
      RegistryAuth auth, long maxBodyBytes) {
    return start(bootstrapServers, client, InetAddress.getLoopbackAddress(), port, topic, auth, maxBodyBytes);
  }

  /** As above, listening on {@code address} (127.0.0.1 unless {@code --http-address} says otherwise). */
  public static SchemaRegistryServer start(String bootstrapServers, KafkaClientConfig client, InetAddress address,
      int port, String topic, RegistryAuth auth, long maxBodyBytes) {
    long t0 = System.nanoTime();
    KafkaSchemaLog schemaLog = new KafkaSchemaLog(bootstrapServers, client, topic);
    try {
      SchemaStore store = new SchemaStore(schemaLog, CompatibilityLevel.BACKWARD);
      HttpServer http = HttpServer.create(new InetSocketAddress(address, port), 64);
      ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "registry-http");
        t.setDaemon(true);
        return t;
      });
      http.setExecutor(executor);
      PrometheusRegistry metrics = new PrometheusRegistry();
      GaugeWithCallback.builder().name(MetricNames.prefix("registry") + "subjects").help("Subjects registered (not deleted)")
          .callback(cb -> cb.call(store.subjects().size())).register(metrics);
      http.createContext("/", RegistryEndpoint.handler(store)).getFilters().addAll(java.util.List.of(
          new HttpRequestMetrics(metrics, "registry", 1),
          new RegistryAuthFilter(auth), new BodyLimitFilter("registry", maxBodyBytes, RegistryEndpoint::errorJson)));
      MetricsEndpoint.addTo(http, metrics); // open to scrapes like the reads: metrics hold no schema text
      http.start();
      SchemaRegistryServer s = new SchemaRegistryServer(http, executor, schemaLog, store);
      log.info("registry started url={} kafka={} kafka_security={} topic={} auth={} ms={}", s.url(), bootstrapServers,
          client.kafkaProperties().getOrDefault("security.protocol", "PLAINTEXT"), topic, auth.mode(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      log.info("registry listening address={} port={}", http.getAddress().getAddress().getHostAddress(),
          http.getAddress().getPort());
      return s;
    } catch (IOException e) {
      schemaLog.close();
      throw new UncheckedIOException("registry: cannot listen on " + address.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      schemaLog.close();
      throw e;
    }
  }

  /** {@code http://127.0.0.1:port}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  public int port() {
    return container != null ? containerPort : http.getAddress().getPort();
  }

  /** The schemas (an in-process registry only). */
  public SchemaStore store() {
    if (container != null) {
      throw new IllegalStateException("registry: the store of a registry in a container is reached over HTTP only (" + url() + ")");
    }
    return store;
  }

  /** Stops serving and closes the producer. */
  public void stop() {
    if (container != null) {
      container.close();
      log.info("registry stopped url={}", url());
      return;
    }
    http.stop(0);
    executor.shutdownNow();
    schemaLog.close();
    log.info("registry stopped url={}", url());
  }

  @Override
  public void close() {
    stop();
  }

  /** {@code --kafka HOST:PORT --http-port N [--topic NAME]}; runs until SIGTERM/SIGINT. */
  public static void main(String[] args) {
    int rc = CommandLines.execute(new RegistryCommand(), args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** The environment variable naming the users file when {@code --basic-auth-users} does not. */
  public static final String USERS_ENV = "FLEETSCOPE_REGISTRY_USERS";

  /** The registry's command line. */
  @Command(name = "registry", sortOptions = false,
      description = "The schema registry (Confluent REST subset) with its state in a compacted Kafka topic.")
  static final class RegistryCommand implements Callable<Integer> {
    @Mixin HelpOption help;
    @Mixin KafkaOption kafka;

    @Option(names = "--http-address", paramLabel = "IP", description = "IP address to listen on (default: "
        + ListenAddress.LOOPBACK + ")")
    String httpAddress = ListenAddress.LOOPBACK;

    @Option(names = "--http-port", paramLabel = "PORT", description = "port; 0: any free port (default: "
        + LocalEndpoints.REGISTRY_PORT + ")")
    int httpPort = LocalEndpoints.REGISTRY_PORT;

    @Option(names = "--topic", paramLabel = "NAME", description = "the compacted state topic (default: "
        + KafkaSchemaLog.DEFAULT_TOPIC + ")")
    String topic = KafkaSchemaLog.DEFAULT_TOPIC;

    @Option(names = "--basic-auth-users", paramLabel = "FILE", description = "user:password lines; with it, writes"
        + " (POST, PUT, DELETE) need HTTP basic auth of one of them (default: $" + USERS_ENV + ", else none: open)")
    Path usersFile;

    @Option(names = "--auth-scope", paramLabel = "writes|all", description = "what needs basic auth when there are"
        + " users: writes, or all requests (default: writes)")
    String authScope = "writes";

    @Option(names = "--max-body-bytes", paramLabel = "N", description = "refuse a request body over N bytes with 413"
        + " (default: " + DEFAULT_MAX_BODY_BYTES + ")")
    long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;

    @Override
    public Integer call() throws InterruptedException {
      SchemaRegistryServer s = start(kafka.bootstrap(), kafka.client(), ListenAddress.parse("registry --http-address", httpAddress),
          httpPort, topic, auth(System.getenv()), maxBodyBytes);
      CountDownLatch done = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        s.stop();
        done.countDown();
      }, "registry-stop"));
      done.await();
      return 0;
    }

    RegistryAuth auth(java.util.Map<String, String> env) {
      if (!authScope.equals("writes") && !authScope.equals("all")) {
        throw new IllegalArgumentException("--auth-scope must be writes or all, got '" + authScope + "'");
      }
      Path file = usersFile != null ? usersFile : env.get(USERS_ENV) == null || env.get(USERS_ENV).isBlank() ? null
          : Path.of(env.get(USERS_ENV).trim());
      return file == null ? RegistryAuth.open() : RegistryAuth.basic(RegistryUsers.load(file), authScope.equals("all"));
    }
  }
}
