package io.fleetscope.stack.services;

import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.TopicSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker (KRaft, combined broker + controller, node id 1) in a child JVM.
 *
 * <p>The data directory holds {@code server.properties}, the log segments under {@code data/},
 * and the broker's own log {@code broker.log} (SLF4J simple binding) plus {@code stdout.log}.
 * Storage is formatted once ({@code kafka.tools.StorageTool format}); a later start on the same
 * directory keeps every topic and offset.
 */
public final class LocalKafka implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalKafka.class);

  /**
   * How to run the broker.
   *
   * @param dataDir directory for config, data and logs (created if missing)
   * @param port client listener port on 127.0.0.1
   * @param controllerPort KRaft controller listener port on 127.0.0.1
   * @param classpath classpath of the child JVM (must hold kafka_2.13 and an SLF4J binding)
   * @param jvmOptions child JVM options, e.g. {@code -Xmx512m}
   * @param detached run in its own session so it outlives this JVM (for {@code fleetscope up})
   * @param startTimeout how long to wait for the broker to answer describeCluster
   */
  public record Config(Path dataDir, int port, int controllerPort, String classpath,
      List<String> jvmOptions, boolean detached, Duration startTimeout) {
    /** Free ports, this JVM's classpath, -Xmx512m, attached, 180 s start timeout (2 busy cores). */
    public static Config defaults(Path dataDir) {
      return new Config(dataDir, FreePorts.pick(), FreePorts.pick(), JavaClasspath.current(),
          List.of("-Xmx512m", "-Xms64m"), false, Duration.ofSeconds(180));
    }

    public Config withPorts(int port, int controllerPort) {
      return new Config(dataDir, port, controllerPort, classpath, jvmOptions, detached, startTimeout);
    }

    public Config withDetached(boolean d) {
      return new Config(dataDir, port, controllerPort, classpath, jvmOptions, d, startTimeout);
    }
  }

  private final Config config;
  private final Process process;

  private LocalKafka(Config config, Process process) {
    this.config = config;
    this.process = process;
  }

  /** Formats storage if needed, starts the broker and waits until it answers. */
  public static LocalKafka start(Config config) {
    long t0 = System.nanoTime();
    Path dir = config.dataDir().toAbsolutePath();
    for (int port : new int[] {config.port(), config.controllerPort()}) {
      if (!FreePorts.isFree(port)) {
        throw new IllegalStateException("kafka: port " + port + " on 127.0.0.1 is in use; stop what listens there or choose another port");
      }
    }
    try {
      Files.createDirectories(dir.resolve("data"));
      Path props = dir.resolve("server.properties");
      Files.writeString(props, serverProperties(config, dir), StandardCharsets.UTF_8);
      if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
        format(config, dir, props);
      }
      List<String> cmd = new ArrayList<>();
      cmd.add(JavaClasspath.javaExecutable());
      cmd.addAll(config.jvmOptions());
      cmd.addAll(loggingOptions(dir));
      cmd.add("-cp");
      cmd.add(config.classpath());
      if (!config.detached()) {
        // attached: the broker dies with this JVM, even on SIGKILL
        cmd.add(ParentWatchdog.class.getName());
        cmd.add(Long.toString(ProcessHandle.current().pid()));
      }
      cmd.add("kafka.Kafka");
      cmd.add(props.toString());
      Process p = ChildProcesses.start(cmd, dir, dir.resolve("stdout.log"), config.detached(), Map.of());
      LocalKafka kafka = new LocalKafka(config, p);
      kafka.awaitReady(config.startTimeout());
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      log.info("kafka started bootstrap={} pid={} ms={} rss_kib={} dir={}", kafka.bootstrapServers(),
          p.pid(), ms, ChildProcesses.rssKiB(p.pid()), dir);
      log.info("kafka listening address=127.0.0.1 port={} controller_port={}", config.port(), config.controllerPort());
      return kafka;
    } catch (IOException e) {
      throw new UncheckedIOException("kafka: cannot prepare " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void format(Config config, Path dir, Path props) {
    String java = JavaClasspath.javaExecutable();
    Duration timeout = Duration.ofSeconds(60);
    String uuid = ChildProcesses.run(List.of(java, "-Xmx256m", "-cp", config.classpath(),
        "kafka.tools.StorageTool", "random-uuid"), dir, timeout).strip();
    String[] lines = uuid.split("\\R");
    uuid = lines[lines.length - 1].strip();
    ChildProcesses.run(List.of(java, "-Xmx256m", "-cp", config.classpath(), "kafka.tools.StorageTool",
        "format", "-t", uuid, "-c", props.toString()), dir, timeout);
  }

  static String serverProperties(Config c, Path dir) {
    String host = "127.0.0.1";
    return String.join("\n",
        "# written by FleetScope LocalKafka; rewritten at every start",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@" + host + ":" + c.controllerPort(),
        "listeners=PLAINTEXT://" + host + ":" + c.port() + ",CONTROLLER://" + host + ":" + c.controllerPort(),
        "advertised.listeners=PLAINTEXT://" + host + ":" + c.port(),
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + dir.resolve("data"),
        "num.partitions=1",
        "default.replication.factor=1",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=4",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=4",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "num.network.threads=2",
        "num.io.threads=4",
        "log.cleaner.dedupe.buffer.size=16777216",
        "log.cleaner.threads=1",
        "auto.create.topics.enable=true",
        "");
  }

  private static List<String> loggingOptions(Path dir) {
    return List.of(
        "-Dorg.slf4j.simpleLogger.logFile=" + dir.resolve("broker.log"),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ",
        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info",
        "-Dorg.slf4j.simpleLogger.log.kafka.log.LogCleaner=warn",
        "-Dorg.slf4j.simpleLogger.log.state.change.logger=warn",
        "-Djava.awt.headless=true");
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    // wait for the listener first, so the probe's client does not log connection failures
    while (System.nanoTime() < deadline && process.isAlive() && !FreePorts.isListening(config.port())) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for kafka", e);
      }
    }
    try (Admin admin = admin()) {
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException("kafka: broker exited rc=" + process.exitValue()
              + " before answering; problems:\n" + logTail());
        }
        try {
          admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          return;
        } catch (Exception e) {
          last = e;
        }
      }
    }
    ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(5));
    throw new IllegalStateException("kafka: broker did not answer within " + timeout + " ("
        + (last == null ? "?" : last.getMessage()) + "); problems:\n" + logTail());
  }

  private String logTail() {
    Path dir = config.dataDir().toAbsolutePath();
    return ChildProcesses.problems(dir.resolve("broker.log"), 5) + "\n" + ChildProcesses.tail(dir.resolve("stdout.log"), 5)
        + "\n(full logs: " + dir.resolve("broker.log") + ", " + dir.resolve("stdout.log") + ")";
  }

  /** {@code 127.0.0.1:port}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + config.port();
  }

  public Config config() {
    return config;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** A new AdminClient on this broker (the caller closes it). */
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
    return Admin.create(p);
  }

  /** Creates a topic (replication 1, the broker's default); an existing topic is left as it is. */
  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Map.of());
  }

  /** Creates a compacted topic (cleanup.policy=compact); an existing topic is left as it is. */
  public void createCompactedTopic(String name, int partitions) {
    createTopics(List.of(TopicSettings.compacted(name, partitions)));
  }

  /** Creates a topic with the given topic configs; an existing topic is left as it is. */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    createTopics(List.of(new TopicSettings(name, partitions, configs)));
  }

  /** Creates the topics that are missing (e.g. {@code Topics.settings()}, every FleetScope topic). */
  public void createTopics(List<TopicSettings> topics) {
    try (Admin admin = admin()) {
      TopicBootstrap.ensure(admin, topics);
    }
  }

  /** Stops the broker (SIGTERM, controlled shutdown) and waits for it to exit. */
  public void stop() {
    if (process.isAlive()) {
      long t0 = System.nanoTime();
      ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(30));
      log.info("kafka stopped pid={} ms={}", process.pid(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
  }

  @Override
  public void close() {
    stop();
  }
}
