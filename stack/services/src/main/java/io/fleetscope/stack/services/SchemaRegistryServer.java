package io.fleetscope.stack.services;

import com.sun.net.httpserver.HttpServer;
import io.fleetscope.stack.services.registry.CompatibilityLevel;
import io.fleetscope.stack.services.registry.KafkaSchemaLog;
import io.fleetscope.stack.services.registry.RegistryEndpoint;
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
 * BACKWARD.
 *
 * <p>Run as its own process: {@code java -cp CP io.fleetscope.stack.services.SchemaRegistryServer
 * --kafka 127.0.0.1:19092 --http-port 18081 [--topic _schemas]} ({@code --help} lists the flags).
 */
public final class SchemaRegistryServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SchemaRegistryServer.class);

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

  private SchemaRegistryServer(HttpServer http, ExecutorService executor, KafkaSchemaLog schemaLog, SchemaStore store) {
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
    long t0 = System.nanoTime();
    KafkaSchemaLog schemaLog = new KafkaSchemaLog(bootstrapServers, topic);
    try {
      SchemaStore store = new SchemaStore(schemaLog, CompatibilityLevel.BACKWARD);
      HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
      ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "registry-http");
        t.setDaemon(true);
        return t;
      });
      http.setExecutor(executor);
      http.createContext("/", RegistryEndpoint.handler(store));
      http.start();
      SchemaRegistryServer s = new SchemaRegistryServer(http, executor, schemaLog, store);
      log.info("registry started url={} kafka={} topic={} ms={}", s.url(), bootstrapServers, topic,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      log.info("registry listening address={} port={}", http.getAddress().getAddress().getHostAddress(),
          http.getAddress().getPort());
      return s;
    } catch (IOException e) {
      schemaLog.close();
      throw new UncheckedIOException("registry: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
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
    return http.getAddress().getPort();
  }

  public SchemaStore store() {
    return store;
  }

  /** Stops serving and closes the producer. */
  public void stop() {
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

  /** The registry's command line. */
  @Command(name = "registry", sortOptions = false,
      description = "The schema registry (Confluent REST subset) with its state in a compacted Kafka topic.")
  static final class RegistryCommand implements Callable<Integer> {
    @Mixin HelpOption help;
    @Mixin KafkaOption kafka;

    @Option(names = "--http-port", paramLabel = "PORT", description = "port on 127.0.0.1; 0: any free port (default: "
        + LocalEndpoints.REGISTRY_PORT + ")")
    int httpPort = LocalEndpoints.REGISTRY_PORT;

    @Option(names = "--topic", paramLabel = "NAME", description = "the compacted state topic (default: "
        + KafkaSchemaLog.DEFAULT_TOPIC + ")")
    String topic = KafkaSchemaLog.DEFAULT_TOPIC;

    @Override
    public Integer call() throws InterruptedException {
      SchemaRegistryServer s = start(kafka.bootstrap(), httpPort, topic);
      CountDownLatch done = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        s.stop();
        done.countDown();
      }, "registry-stop"));
      done.await();
      return 0;
    }
  }
}
