package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prometheus Alertmanager (Debian's {@code /usr/bin/prometheus-alertmanager}) as a child
 * process on 127.0.0.1 without cluster gossip, with its storage and log in a directory of ours.
 */
public final class LocalAlertmanager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalAlertmanager.class);
  public static final Path DEFAULT_BINARY = Path.of("/usr/bin/prometheus-alertmanager");

  /**
   * @param configFile alertmanager.yml
   * @param storageDir storage path and log file ({@code alertmanager.log})
   * @param port web listen port on 127.0.0.1
   * @param binary the alertmanager executable
   * @param detached run in its own session so it outlives this JVM
   */
  public record Config(Path configFile, Path storageDir, int port, Path binary, boolean detached) {
    public static Config defaults(Path configFile, Path storageDir) {
      return new Config(configFile, storageDir, FreePorts.pick(), DEFAULT_BINARY, false);
    }
  }

  private final Config config;
  private Process process;
  /** Set when Alertmanager runs in a container (the containers backend of TestServices). */
  private final ServiceContainer container;

  private LocalAlertmanager(Config config) {
    this.config = config;
    this.container = null;
  }

  private LocalAlertmanager(Config config, ServiceContainer container) {
    this.config = config;
    this.container = container;
  }

  /** A handle on an Alertmanager of this configuration that runs in {@code container}. */
  static LocalAlertmanager inContainer(Config config, ServiceContainer container) {
    return new LocalAlertmanager(config, container);
  }

  /** Starts Alertmanager and waits until {@code /-/ready} answers 200. */
  public static LocalAlertmanager start(Config config) {
    if (!Files.isExecutable(config.binary())) {
      throw new IllegalStateException("Alertmanager is not installed (no " + config.binary()
          + "): run deploy/local/install.sh");
    }
    if (!Files.isRegularFile(config.configFile())) {
      throw new IllegalArgumentException("alertmanager: no config file " + config.configFile());
    }
    LocalAlertmanager am = new LocalAlertmanager(config);
    am.launch();
    return am;
  }

  private void launch() {
    long t0 = System.nanoTime();
    Path dir = config.storageDir().toAbsolutePath();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("alertmanager: cannot create " + dir, e);
    }
    List<String> cmd = List.of(config.binary().toString(),
        "--config.file=" + config.configFile().toAbsolutePath(),
        "--storage.path=" + dir,
        "--web.listen-address=127.0.0.1:" + config.port(),
        "--cluster.listen-address=",
        "--log.format=logfmt");
    process = ChildProcesses.start(cmd, dir, dir.resolve("alertmanager.log"), config.detached(), Map.of());
    awaitReady(Duration.ofSeconds(30));
    log.info("alertmanager started url={} pid={} ms={}", url(), process.pid(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    // --cluster.listen-address= (empty): no gossip listener at all
    log.info("alertmanager listening address=127.0.0.1 port={} cluster=off", config.port());
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("alertmanager exited rc=" + process.exitValue() + "; log tail:\n"
            + ChildProcesses.tail(config.storageDir().resolve("alertmanager.log"), 20));
      }
      if (isReady(url())) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for alertmanager", e);
      }
    }
    ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(5));
    throw new IllegalStateException("alertmanager not ready within " + timeout + "; log tail:\n"
        + ChildProcesses.tail(config.storageDir().resolve("alertmanager.log"), 20));
  }

  /** Whether {@code baseUrl/-/ready} answers 200. */
  public static boolean isReady(String baseUrl) {
    try {
      HttpResponse<Void> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build().send(
          HttpRequest.newBuilder(URI.create(baseUrl + "/-/ready")).timeout(Duration.ofSeconds(2)).GET().build(),
          HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** {@code http://127.0.0.1:port}. */
  public String url() {
    return "http://127.0.0.1:" + config.port();
  }

  public long pid() {
    return container != null ? container.pid() : process.pid();
  }

  public Config config() {
    return config;
  }

  /** Stops and starts it again on the same port and storage (silences and alerts kept on disk). */
  public synchronized void restart() {
    if (container != null) {
      container.restart(Duration.ofSeconds(15));
      return;
    }
    stop();
    launch();
  }

  public synchronized void stop() {
    if (container != null) {
      container.stop(Duration.ofSeconds(15));
      return;
    }
    if (process != null && process.isAlive()) {
      ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(15));
      log.info("alertmanager stopped url={}", url());
    }
  }

  @Override
  public void close() {
    if (container != null) {
      container.close();
      return;
    }
    stop();
  }
}
