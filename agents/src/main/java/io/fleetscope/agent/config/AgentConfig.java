package io.fleetscope.agent.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The whole agent configuration, read from one YAML file by {@link ConfigLoader}. Every key and its
 * default is documented in agents/README.md; collector sections are keyed by collector name (see
 * {@link io.fleetscope.agent.core.CollectorRegistry}).
 */
public final class AgentConfig {
  /** Cluster name stamped on every record. Required. */
  public String cluster;
  /** This node's (or facility agent's) name; default: the host name. */
  public String node;
  /** Collection interval of every collector unless a section overrides it. Default 10s. */
  public Duration interval = Duration.ofSeconds(10);
  /** Filesystem roots read by collectors. */
  public PathsConfig paths = new PathsConfig();
  public KafkaConfig kafka = new KafkaConfig();
  public SpoolConfig spool = new SpoolConfig();
  public MetricsConfig metrics = new MetricsConfig();

  /** Directory of the config file; relative paths in the file resolve against it. Not a YAML key. */
  public transient Path baseDir = Path.of(".");
  /** Collector sections by name, in file order, already bound to their typed classes. Not a YAML key. */
  public transient Map<String, CollectorConfig> collectors = new LinkedHashMap<>();

  public Path resolve(Path p) {
    return p.isAbsolute() ? p : baseDir.resolve(p).normalize();
  }

  public Path sysRoot() {
    return resolve(paths.sys);
  }

  public Path procRoot() {
    return resolve(paths.proc);
  }

  public Map<String, CollectorConfig> collectors() {
    return Collections.unmodifiableMap(collectors);
  }

  /**
   * The Kafka client security settings: the file {@code kafka.config_file} names (relative to this
   * file), else {@code $FLEETSCOPE_KAFKA_CONFIG}'s, else none.
   */
  public io.fleetscope.schemas.kafka.KafkaClientConfig kafkaClient() {
    String file = kafka.configFile == null ? null : resolve(kafka.configFile).toString();
    return io.fleetscope.schemas.kafka.KafkaClientConfig.resolve(file, System.getenv());
  }

  void validate() throws ConfigException {
    if (cluster == null || cluster.isBlank()) throw new ConfigException("cluster", "is required (the cluster name stamped on every record)");
    if (node != null && node.isBlank()) throw new ConfigException("node", "must not be blank (leave it out to use the host name)");
    Checks.positive("interval", interval);
    paths.validate();
    kafka.validate();
    try {
      kafkaClient();
    } catch (IllegalArgumentException e) {
      throw new ConfigException("kafka.config_file", e.getMessage());
    }
    spool.validate();
    metrics.validate();
  }

  /** {@code paths} section. */
  public static final class PathsConfig {
    /** Root of sysfs; point it at a captured tree to replay. Default /sys. */
    public Path sys = Path.of("/sys");
    /** Root of procfs. Default /proc. */
    public Path proc = Path.of("/proc");

    void validate() throws ConfigException {
      if (sys == null) throw new ConfigException("paths.sys", "must not be empty");
      if (proc == null) throw new ConfigException("paths.proc", "must not be empty");
    }
  }

  /** {@code kafka} section. */
  public static final class KafkaConfig {
    /** Kafka bootstrap servers. Default 127.0.0.1:19092 (the local stack). */
    public String bootstrap = "127.0.0.1:19092";
    /** Schema registry base URL. Default http://127.0.0.1:18081. */
    public String registryUrl = "http://127.0.0.1:18081";
    /** Producer compression: lz4 or zstd. Default lz4. */
    public String compression = "lz4";
    /**
     * How long the sender waits, once a record is spooled, for the rest of the round before it sends
     * (one request per round instead of one per collector); also the producer's linger.ms. Default 50ms.
     */
    public Duration linger = Duration.ofMillis(50);
    /** Producer batch.size. Default 64KiB. */
    public ByteSize batchSize = ByteSize.ofKiB(64);
    /** Producer buffer.memory (kept small for the agent's footprint). Default 4MiB. */
    public ByteSize bufferMemory = ByteSize.ofMiB(4);
    /** Producer request.timeout.ms. Default 15s. */
    public Duration requestTimeout = Duration.ofSeconds(15);
    /** Producer client.id; default fleetscope-agent-NODE. */
    public String clientId;
    /**
     * Kafka client properties file (TLS, SASL and the registry's credentials, the format every
     * FleetScope component reads with {@code --kafka-config}); relative to this file. Default: the
     * file {@code $FLEETSCOPE_KAFKA_CONFIG} names, else none.
     */
    public Path configFile;
    /** Extra producer properties (e.g. security settings); may not override acks or idempotence. */
    public Map<String, String> properties = new LinkedHashMap<>();

    void validate() throws ConfigException {
      if (bootstrap == null || bootstrap.isBlank()) throw new ConfigException("kafka.bootstrap", "is required (host:port[,host:port])");
      if (registryUrl == null || !(registryUrl.startsWith("http://") || registryUrl.startsWith("https://"))) {
        throw new ConfigException("kafka.registry_url", "must be an http:// or https:// URL, got '" + registryUrl + "'");
      }
      if (!"lz4".equals(compression) && !"zstd".equals(compression)) {
        throw new ConfigException("kafka.compression", "must be lz4 or zstd, got '" + compression + "'");
      }
      Checks.notNegative("kafka.linger", linger);
      Checks.positive("kafka.request_timeout", requestTimeout);
      if (batchSize.bytes() < 1024) throw new ConfigException("kafka.batch_size", "must be at least 1KiB, got " + batchSize);
      if (bufferMemory.bytes() < batchSize.bytes()) {
        throw new ConfigException("kafka.buffer_memory", "must be at least kafka.batch_size (" + batchSize + "), got " + bufferMemory);
      }
      for (String k : properties.keySet()) {
        if (k.equals("acks") || k.equals("enable.idempotence") || k.startsWith("key.") || k.startsWith("value.")) {
          throw new ConfigException("kafka.properties." + k, "is fixed by the agent (acks=all, idempotent, Avro serde) and may not be overridden");
        }
      }
    }
  }

  /** {@code spool} section: the on-disk buffer every record passes through. */
  public static final class SpoolConfig {
    /** Spool directory (also holds the persisted agent_seq). Default .fleetscope/agent/spool. */
    public Path dir = Path.of(".fleetscope/agent/spool");
    /** Size limit; when full, the oldest records are dropped (counted and logged). Default 256MiB. */
    public ByteSize maxBytes = ByteSize.ofMiB(256);
    /** Size of one spool segment file. Default 4MiB. */
    public ByteSize segmentBytes = ByteSize.ofMiB(4);
    /** Longest time appended records stay unforced (fsync); also forced at every segment roll. 0: every append. Default 1s. */
    public Duration fsyncInterval = Duration.ofSeconds(1);

    void validate() throws ConfigException {
      if (fsyncInterval == null || fsyncInterval.isNegative()) throw new ConfigException("spool.fsync_interval", "must be 0 or more");
      if (dir == null) throw new ConfigException("spool.dir", "must not be empty");
      if (segmentBytes.bytes() < 4096) throw new ConfigException("spool.segment_bytes", "must be at least 4KiB, got " + segmentBytes);
      if (maxBytes.bytes() < 2 * segmentBytes.bytes()) {
        throw new ConfigException("spool.max_bytes", "must be at least two segments (2 x spool.segment_bytes = "
            + new ByteSize(2 * segmentBytes.bytes()) + "), got " + maxBytes);
      }
    }
  }

  /** {@code metrics} section: the self-metrics endpoint, always bound to 127.0.0.1. */
  public static final class MetricsConfig {
    /** Serve /metrics. Default true. */
    public boolean enabled = true;
    /** TCP port; 0 picks a free port. Default 9464. */
    public int port = 9464;
    /**
     * The IP address /metrics listens on. Default 127.0.0.1; a Prometheus scraping from another host
     * needs the node's address or {@code 0.0.0.0}, written so.
     */
    public String address = io.fleetscope.schemas.cli.ListenAddress.LOOPBACK;

    void validate() throws ConfigException {
      if (port < 0 || port > 65535) throw new ConfigException("metrics.port", "must be 0..65535, got " + port);
      try {
        io.fleetscope.schemas.cli.ListenAddress.parse("metrics.address", address);
      } catch (IllegalArgumentException e) {
        throw new ConfigException("metrics.address", "must be an IP address such as 127.0.0.1, got '" + address + "'");
      }
    }
  }
}
