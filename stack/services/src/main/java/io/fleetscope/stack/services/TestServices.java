package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place integration tests get their services from. Each is a real service: a Kafka broker,
 * the registry on that broker, a PostgreSQL+TimescaleDB test cluster, Alertmanager. They start
 * lazily on free 127.0.0.1 ports, are shared by every test class of the JVM, and are torn down (and
 * the temporary directory removed) by a shutdown hook. Use unique topic and database names per test
 * class.
 *
 * <p>{@code -Dfleetscope.services} chooses where they come from ({@link ServicesBackend}):
 * {@code processes} (default; child processes of the locally installed services, under one
 * temporary directory) or {@code containers} (FleetScope's images through Testcontainers on the host
 * network; needs a Docker daemon and {@code deploy/images/build.sh}).
 *
 * <p>Set {@code -Dfleetscope.test.keep=true} to keep the temporary directory (logs) after the run.
 */
public final class TestServices {
  private static final Logger log = LoggerFactory.getLogger(TestServices.class);

  private static Path root;
  private static LocalKafka kafka;
  private static SchemaRegistryServer registry;
  private static LocalPostgres postgres;
  private static LocalPostgres communityPostgres;
  private static final List<LocalAlertmanager> alertmanagers = new ArrayList<>();
  private static final List<AutoCloseable> closeOrder = new ArrayList<>();
  private static ServicesBackend backend;

  private TestServices() {}

  /** The shared broker (started on first use). */
  public static synchronized LocalKafka kafka() {
    if (kafka == null) {
      Path d = dir("kafka");
      kafka = timed("kafka", () -> backend().kafka(d));
      closeOrder.add(kafka);
    }
    return kafka;
  }

  /** The shared schema registry, on the shared broker (started on first use). */
  public static synchronized SchemaRegistryServer registry() {
    if (registry == null) {
      LocalKafka k = kafka();
      registry = timed("registry", () -> backend().registry(k));
      closeOrder.add(registry);
    }
    return registry;
  }

  /** The shared PostgreSQL+TimescaleDB test cluster (fsync off; started on first use). */
  public static synchronized LocalPostgres postgres() {
    if (postgres == null) {
      Path d = dir("postgres");
      postgres = timed("postgres", () -> backend().postgres(d));
      closeOrder.add(postgres);
    }
    return postgres;
  }

  /**
   * A second shared test cluster on TimescaleDB's community edition ({@code timescaledb.license =
   * timescale}: compression, continuous aggregates, policies), started on first use. Callers check
   * {@link #communityEditionInstalled} first and skip with its message when it is not.
   */
  public static synchronized LocalPostgres postgresCommunity() {
    if (!communityEditionInstalled()) {
      throw new IllegalStateException(COMMUNITY_MISSING);
    }
    if (communityPostgres == null) {
      communityPostgres = LocalPostgres.start(LocalPostgres.Config.forTests(dir("postgres-community"))
          .withLicense(LocalPostgres.Config.COMMUNITY));
      closeOrder.add(communityPostgres);
    }
    return communityPostgres;
  }

  /** Why community-edition tests skip when its build is missing. */
  public static final String COMMUNITY_MISSING = "TimescaleDB community edition not installed (no timescaledb-tsl-*.so): "
      + "put its source at ../shared/vendor/timescaledb-<version>.tar.gz (or FLEETSCOPE_TSDB_TARBALL) and run deploy/local/install.sh";

  public static boolean communityEditionInstalled() {
    return LocalPostgres.communityInstalled(java.nio.file.Path.of(LocalPostgres.DEFAULT_BIN));
  }

  /** A new Alertmanager with this configuration file (each call starts another instance). */
  public static synchronized LocalAlertmanager alertmanager(Path configFile) {
    Path d = dir("alertmanager-" + (alertmanagers.size() + 1));
    LocalAlertmanager am = timed("alertmanager", () -> backend().alertmanager(configFile, d));
    alertmanagers.add(am);
    closeOrder.add(am);
    return am;
  }

  private static ServicesBackend backend() {
    if (backend == null) {
      backend = ServicesBackend.fromSystemProperties();
    }
    return backend;
  }

  /** Starts a service and logs how long it took (BENCHMARKS.md compares the two backends with it). */
  private static <T> T timed(String service, java.util.function.Supplier<T> start) {
    long t0 = System.nanoTime();
    T s = start.get();
    log.info("test service started service={} backend={} ms={}", service, backend(),
        java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    return s;
  }

  private static Path dir(String name) {
    try {
      if (root == null) {
        root = Files.createTempDirectory("fleetscope-test-");
        // PostgreSQL runs as the postgres user when we are root: it must reach its data dir
        root.toFile().setExecutable(true, false);
        root.toFile().setReadable(true, false);
        Runtime.getRuntime().addShutdownHook(new Thread(TestServices::shutdown, "fleetscope-test-services-stop"));
        log.info("test services dir={}", root);
      }
      Path d = root.resolve(name);
      Files.createDirectories(d);
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create test services dir: " + e.getMessage(), e);
    }
  }

  private static synchronized void shutdown() {
    for (int i = closeOrder.size() - 1; i >= 0; i--) {
      try {
        closeOrder.get(i).close();
      } catch (Exception e) {
        log.warn("test services stop failed service={} error={}", closeOrder.get(i).getClass().getSimpleName(), e.toString());
      }
    }
    if (root != null && !Boolean.getBoolean("fleetscope.test.keep")) {
      try (Stream<Path> s = Files.walk(root)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        log.warn("test services cleanup failed dir={} error={}", root, e.toString());
      }
    }
  }
}
