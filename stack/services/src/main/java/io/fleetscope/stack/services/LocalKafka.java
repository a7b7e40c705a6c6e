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
      List<String> jvmOptions, boolean detached, Duration startTimeout, Security security) {
    /** Free ports, this JVM's classpath, -Xmx512m, attached, 180 s start timeout (2 busy cores), plaintext. */
    public static Config defaults(Path dataDir) {
      return new Config(dataDir, FreePorts.pick(), FreePorts.pick(), JavaClasspath.current(),
          List.of("-Xmx512m", "-Xms64m"), false, Duration.ofSeconds(180), null);
    }

    public Config withPorts(int port, int controllerPort) {
      return new Config(dataDir, port, controllerPort, classpath, jvmOptions, detached, startTimeout, security);
    }

    public Config withDetached(boolean d) {
      return new Config(dataDir, port, controllerPort, classpath, jvmOptions, d, startTimeout, security);
    }

    /** The client listener as SASL_SSL (SCRAM-SHA-512) with ACLs, as {@code s} describes. */
    public Config withSecurity(Security s) {
      return new Config(dataDir, port, controllerPort, classpath, jvmOptions, detached, startTimeout, s);
    }
  }

  /**
   * A secured broker: its client listener speaks SASL_SSL with SCRAM-SHA-512 over the certificate of
   * {@code certs}, a StandardAuthorizer refuses everything no ACL allows, and {@code adminUser}
   * (created at format time) is the super user that inter-broker traffic and {@link #admin()} use.
   * The KRaft controller listener speaks TLS and requires a client certificate signed by the test CA:
   * the broker's own ({@link TestCertificates#BROKER_PRINCIPAL}, a super user) is the only one there.
   */
  public record Security(TestCertificates certs, String adminUser, String adminPassword) {
    /** New certificates under {@code dir} and a random password for user {@code admin}. */
    public static Security create(Path dir) {
      return new Security(TestCertificates.create(dir), "admin", TestCertificates.randomPassword());
    }

    @Override
    public String toString() {
      return "Security[certs=" + certs + ", adminUser=" + adminUser + "]";
    }
  }

  private final Config config;
  private final Process process;
  /** Set when the broker runs in a container (the containers backend of TestServices); then process is null. */
  private final ServiceContainer container;

  private LocalKafka(Config config, Process process) {
    this.config = config;
    this.process = process;
    this.container = null;
  }

  private LocalKafka(Config config, ServiceContainer container) {
    this.config = config;
    this.process = null;
    this.container = container;
  }

  /** A handle on a broker of this configuration that runs in {@code container}. */
  static LocalKafka inContainer(Config config, ServiceContainer container) {
    return new LocalKafka(config, container);
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
      if (config.security() != null) {
        Files.setPosixFilePermissions(props, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      }
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
      log.info("kafka started bootstrap={} listener={} pid={} ms={} rss_kib={} dir={}", kafka.bootstrapServers(),
          config.security() == null ? "PLAINTEXT" : "SASL_SSL+acls", p.pid(), ms, ChildProcesses.rssKiB(p.pid()), dir);
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
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", config.classpath(), "kafka.tools.StorageTool",
        "format", "-t", uuid, "-c", props.toString()));
    Security s = config.security();
    if (s != null) {
      cmd.addAll(List.of("--add-scram", SCRAM + "=[name=" + s.adminUser() + ",password=" + s.adminPassword() + "]"));
    }
    try {
      ChildProcesses.run(cmd, dir, timeout);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("kafka: format failed: "
          + String.valueOf(e.getMessage()).replaceAll("password=[^\\]]*", "password=[hidden]"));
    }
  }

  /** The SASL mechanism of a secured broker. */
  public static final String SCRAM = "SCRAM-SHA-512";

  private static String securedProperties(Config c, String host) {
    Security s = c.security();
    return String.join("\n",
        "listeners=SASL_SSL://" + host + ":" + c.port() + ",CONTROLLER://" + host + ":" + c.controllerPort(),
        "advertised.listeners=SASL_SSL://" + host + ":" + c.port(),
        "inter.broker.listener.name=SASL_SSL",
        "listener.security.protocol.map=SASL_SSL:SASL_SSL,CONTROLLER:SSL",
        "sasl.enabled.mechanisms=" + SCRAM,
        "sasl.mechanism.inter.broker.protocol=" + SCRAM,
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=" + jaas(s.adminUser(), s.adminPassword()),
        "ssl.keystore.type=PKCS12",
        "ssl.keystore.location=" + s.certs().keystore(),
        "ssl.keystore.password=" + s.certs().keystorePassword(),
        "ssl.key.password=" + s.certs().keystorePassword(),
        "ssl.truststore.type=PKCS12",
        "ssl.truststore.location=" + s.certs().truststore(),
        "ssl.truststore.password=" + s.certs().truststorePassword(),
        "ssl.client.auth=none",
        // the controller listener takes only the broker itself: TLS with a certificate signed by the test CA
        "listener.name.controller.ssl.client.auth=required",
        "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "allow.everyone.if.no.acl.found=false",
        "super.users=User:" + s.adminUser() + ";User:" + TestCertificates.BROKER_PRINCIPAL);
  }

  /** The JAAS line of a SCRAM client logging in as {@code user}. */
  public static String jaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
        + password + "\";";
  }

  static String serverProperties(Config c, Path dir) {
    String host = "127.0.0.1";
    return String.join("\n",
        "# written by FleetScope LocalKafka; rewritten at every start",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@" + host + ":" + c.controllerPort(),
        "controller.listener.names=CONTROLLER",
        c.security() == null ? plaintextProperties(c, host) : securedProperties(c, host),
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

  private static String plaintextProperties(Config c, String host) {
    return String.join("\n",
        "listeners=PLAINTEXT://" + host + ":" + c.port() + ",CONTROLLER://" + host + ":" + c.controllerPort(),
        "advertised.listeners=PLAINTEXT://" + host + ":" + c.port(),
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
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
    return container != null ? container.pid() : process.pid();
  }

  public boolean isAlive() {
    return container != null ? container.isRunning() : process.isAlive();
  }

  /**
   * The Kafka client security properties of {@code user} on this broker: SASL_SSL, SCRAM-SHA-512,
   * the test CA as trust store; empty for a plaintext broker. What a {@code --kafka-config} file holds.
   */
  public Map<String, String> clientSecurity(String user, String password) {
    Security s = config.security();
    if (s == null) {
      return Map.of();
    }
    Map<String, String> m = new java.util.LinkedHashMap<>();
    m.put("security.protocol", "SASL_SSL");
    m.put("sasl.mechanism", SCRAM);
    m.put("sasl.jaas.config", jaas(user, password));
    m.put("ssl.truststore.type", "PKCS12");
    m.put("ssl.truststore.location", s.certs().truststore().toString());
    m.put("ssl.truststore.password", s.certs().truststorePassword());
    return m;
  }

  /** Creates or replaces SCRAM-SHA-512 user {@code user} (a secured broker only). */
  public void addScramUser(String user, String password) {
    if (config.security() == null) {
      throw new IllegalStateException("kafka: SCRAM users need a secured broker (Config.withSecurity)");
    }
    try (Admin admin = admin()) {
      admin.alterUserScramCredentials(List.of(new org.apache.kafka.clients.admin.UserScramCredentialUpsertion(user,
          new org.apache.kafka.clients.admin.ScramCredentialInfo(org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512,
              8192), password))).all().get(30, TimeUnit.SECONDS);
      log.info("kafka scram user created user={}", user);
    } catch (Exception e) {
      throw new IllegalStateException("kafka: cannot create SCRAM user " + user + ": " + e.getMessage(), e);
    }
  }

  /**
   * Allows {@code user} the operations {@code ops} on the resource ({@code pattern} LITERAL or
   * PREFIXED; {@code type} CLUSTER takes the name {@code kafka-cluster}), from any host.
   */
  public void allow(String user, org.apache.kafka.common.resource.ResourceType type, String name,
      org.apache.kafka.common.resource.PatternType pattern, org.apache.kafka.common.acl.AclOperation... ops) {
    List<org.apache.kafka.common.acl.AclBinding> bindings = new ArrayList<>();
    for (org.apache.kafka.common.acl.AclOperation op : ops) {
      bindings.add(new org.apache.kafka.common.acl.AclBinding(
          new org.apache.kafka.common.resource.ResourcePattern(type, name, pattern),
          new org.apache.kafka.common.acl.AccessControlEntry("User:" + user, "*", op,
              org.apache.kafka.common.acl.AclPermissionType.ALLOW)));
    }
    try (Admin admin = admin()) {
      admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
      log.info("kafka acl created user={} resource={}:{} pattern={} operations={}", user, type, name, pattern,
          java.util.Arrays.toString(ops));
    } catch (Exception e) {
      throw new IllegalStateException("kafka: cannot create ACLs for " + user + ": " + e.getMessage(), e);
    }
  }

  /** A new AdminClient on this broker (the caller closes it); the super user's on a secured broker. */
  public Admin admin() {
    Properties p = new Properties();
    Security s = config.security();
    if (s != null) {
      p.putAll(clientSecurity(s.adminUser(), s.adminPassword()));
    }
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
    if (container != null) {
      container.close();
      return;
    }
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
