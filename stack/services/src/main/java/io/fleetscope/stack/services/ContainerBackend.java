package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The containers backend: Kafka, the schema registry, PostgreSQL+TimescaleDB and Alertmanager from
 * FleetScope's images ({@code deploy/images/build.sh}: fleetscope/kafka, registry, timescaledb,
 * alertmanager) through Testcontainers, each on the host network on free 127.0.0.1 ports, with the
 * settings the process backend gives its test instances. Images are never pulled and Ryuk is off
 * ({@code testcontainers.properties}, {@code TESTCONTAINERS_RYUK_DISABLED}).
 */
final class ContainerBackend implements ServicesBackend {
  /**
   * @param imageTag tag of the fleetscope/* images ({@code -Dfleetscope.images.tag}, default 0.1.0)
   * @param startTimeout how long a service may take to answer after its container started
   *     ({@code -Dfleetscope.containers.start-timeout-seconds}, default 180: two busy cores)
   */
  record Config(String imageTag, Duration startTimeout) {
    static final String DEFAULT_TAG = "0.1.0";

    static Config fromSystemProperties() {
      return new Config(System.getProperty("fleetscope.images.tag", DEFAULT_TAG),
          Duration.ofSeconds(Long.getLong("fleetscope.containers.start-timeout-seconds", 180)));
    }

    String image(String component) {
      return "fleetscope/" + component + ":" + imageTag;
    }
  }

  private static final String KAFKA_PROPERTIES = "/etc/kafka/fleetscope.properties";
  private static final String ALERTMANAGER_CONFIG = "/etc/alertmanager/fleetscope.yml";

  private final Config config;

  ContainerBackend(Config config) {
    this.config = config;
  }

  @Override
  public LocalKafka kafka(Path dir) {
    LocalKafka.Config c = LocalKafka.Config.defaults(dir);
    String props = LocalKafka.serverProperties(c, Path.of("/var/lib/kafka"));
    ServiceContainer container = ServiceContainer.start(new ServiceContainer.Spec("kafka", config.image("kafka"),
        List.of(KAFKA_PROPERTIES), Map.of("KAFKA_HEAP_OPTS", String.join(" ", c.jvmOptions())),
        Map.of(KAFKA_PROPERTIES, props), config.startTimeout()), () -> kafkaAnswers(c.port()));
    return LocalKafka.inContainer(c, container);
  }

  @Override
  public SchemaRegistryServer registry(LocalKafka kafka) {
    int port = FreePorts.pick();
    ServiceContainer container = ServiceContainer.start(new ServiceContainer.Spec("registry", config.image("registry"),
        List.of("--kafka", kafka.bootstrapServers(), "--http-address", "127.0.0.1", "--http-port", Integer.toString(port)),
        Map.of(), Map.of(), config.startTimeout()), () -> httpOk("http://127.0.0.1:" + port + "/subjects"));
    return SchemaRegistryServer.inContainer(container, port);
  }

  @Override
  public LocalPostgres postgres(Path dir) {
    LocalPostgres.Config c = LocalPostgres.Config.forTests(dir);
    // the test instance's settings of LocalPostgres; fsync and friends off: a test instance only
    ServiceContainer container = ServiceContainer.start(new ServiceContainer.Spec("postgres", config.image("timescaledb"),
        List.of("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
            "-c", "max_connections=100", "-c", "shared_buffers=1GB", "-c", "wal_buffers=32MB", "-c", "max_wal_size=8GB",
            "-c", "checkpoint_timeout=15min",
            // the edition the process backend's test clusters run (community tests ask for theirs)
            "-c", "timescaledb.license=" + c.tsdbLicense()),
        Map.of("POSTGRES_HOST_AUTH_METHOD", "trust", "POSTGRES_LISTEN", "127.0.0.1", "PGPORT", Integer.toString(c.port())),
        Map.of(), config.startTimeout()), () -> postgresAnswers(c.port()));
    return LocalPostgres.inContainer(c, container);
  }

  @Override
  public LocalAlertmanager alertmanager(Path configFile, Path dir) {
    LocalAlertmanager.Config c = LocalAlertmanager.Config.defaults(configFile, dir);
    String yml;
    try {
      yml = Files.readString(configFile);
    } catch (IOException e) {
      throw new UncheckedIOException("alertmanager: cannot read " + configFile + ": " + e.getMessage(), e);
    }
    String url = "http://127.0.0.1:" + c.port();
    ServiceContainer container = ServiceContainer.start(new ServiceContainer.Spec("alertmanager",
        config.image("alertmanager"),
        List.of("--config.file=" + ALERTMANAGER_CONFIG, "--web.listen-address=127.0.0.1:" + c.port()),
        Map.of(), Map.of(ALERTMANAGER_CONFIG, yml), config.startTimeout()), () -> LocalAlertmanager.isReady(url));
    return LocalAlertmanager.inContainer(c, container);
  }

  private static boolean kafkaAnswers(int port) {
    if (!FreePorts.isListening(port)) {
      return false;
    }
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
    try (Admin admin = Admin.create(p)) {
      admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static boolean postgresAnswers(int port) {
    if (!FreePorts.isListening(port)) {
      return false;
    }
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user="
        + LocalPostgres.SUPERUSER + "&connectTimeout=2")) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  private static boolean httpOk(String url) {
    try {
      HttpResponse<Void> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build().send(
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
          HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public String toString() {
    return "containers";
  }
}
