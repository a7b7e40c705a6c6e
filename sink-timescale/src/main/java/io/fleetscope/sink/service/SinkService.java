package io.fleetscope.sink.service;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.Backoff;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.SchemaRegistryClient;
import io.fleetscope.schemas.metrics.MetricsServer;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.db.StartWait;
import io.fleetscope.sink.maintenance.RetentionJob;
import io.fleetscope.sink.maintenance.BackgroundJobHealth;
import io.fleetscope.sink.maintenance.CompressionPolicies;
import io.fleetscope.sink.maintenance.ContinuousAggregates;
import io.fleetscope.sink.maintenance.Rollups;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink service: applies the migrations, then runs {@code sink.workers} consumer threads (one
 * consumer group, so Kafka spreads the partitions of every topic over them) and the maintenance
 * schedule (rollup refresh; retention on the Apache edition).
 */
public final class SinkService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SinkService.class);

  private final SinkConfig config;
  private final KafkaClientConfig kafkaClient;
  private final Database db;
  private final Database owner;
  private final SinkMetrics metrics = new SinkMetrics();
  private final List<SinkWorker> workers = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private ScheduledExecutorService maintenance;
  private Producer<String, DeadLetter> dlqProducer;
  private Edition edition;
  private MetricsServer metricsServer;

  public SinkService(SinkConfig config) {
    this.config = config;
    this.kafkaClient = KafkaClientConfig.resolve(config.string(SinkConfig.KAFKA_CONFIG), System.getenv());
    this.db = Database.from(config);
    this.owner = Database.owner(config);
  }

  public SinkMetrics metrics() {
    return metrics;
  }

  /** {@code http://ADDRESS:PORT/metrics}, or empty when sink.metrics_port is -1 or before start. */
  public java.util.Optional<String> metricsUrl() {
    return java.util.Optional.ofNullable(metricsServer).map(MetricsServer::url);
  }

  public Edition edition() {
    return edition;
  }

  /**
   * Only the migrations (and, on the community edition, the retention policies), waiting as
   * {@link #start()} does for a database that is not up yet; returns the edition found. The
   * Kubernetes migrations Job runs this through {@code sink --migrate-only}.
   */
  public synchronized Edition migrate() throws SQLException, InterruptedException {
    migrateWithRetry();
    return edition;
  }

  /** Migrates (waiting while the database is not up yet, see {@link SinkConfig#START_WAIT}) and starts the workers. */
  public synchronized void start() throws SQLException, InterruptedException {
    int metricsPort = config.integer(SinkConfig.METRICS_PORT);
    if (metricsPort >= 0 && metricsServer == null) {
      metricsServer = MetricsServer.start("sink", SinkConfig.METRICS_ADDRESS.name(), config.string(SinkConfig.METRICS_ADDRESS),
          metricsPort, metrics.registry());
    }
    migrateWithRetry();
    SchemaRegistryClient registry = kafkaClient.registryClient(config.string(SinkConfig.REGISTRY));
    dlqProducer = new KafkaProducer<>(producerProps(), new StringSerializer(), new AvroSerializer<>(registry));
    List<String> topics = config.topics();
    int n = config.integer(SinkConfig.WORKERS);
    for (int i = 0; i < n; i++) {
      String name = "sink-" + i;
      SinkWorker w = new SinkWorker(name, new KafkaConsumer<>(consumerProps(name), new ByteArrayDeserializer(),
          new ByteArrayDeserializer()), dlqProducer, config.string(SinkConfig.DLQ_TOPIC), db, new RecordDecoder(registry),
          topics, config.millis(SinkConfig.RETRY_INITIAL), config.millis(SinkConfig.RETRY_MAX), metrics,
          config.directFirst(), config.copyFormat(), config.millis(SinkConfig.LOCK_TIMEOUT));
      Thread t = new Thread(w, name);
      workers.add(w);
      threads.add(t);
      t.start();
    }
    startMaintenance();
    log.info("sink started workers={} topics={} edition={} jdbc={} user={} kafka={} kafka_client=\"{}\"", n, topics.size(),
        edition.migrationSuffix(), withoutParameters(db.url()), db.user(), config.string(SinkConfig.KAFKA), kafkaClient.describe());
  }

  /** The JDBC URL without its parameters (which may hold a password), for logs. */
  static String withoutParameters(String url) {
    return StartWait.withoutParameters(url);
  }

  /**
   * Applies the migrations as the owner and detects the edition, then checks that the sink's own
   * credential connects, waiting (up to jdbc.start_wait_seconds) while the database is not
   * reachable or not accepting connections yet; errors that waiting will not cure fail at once.
   */
  private void migrateWithRetry() throws SQLException, InterruptedException {
    StartWait wait = new StartWait(new Backoff(config.millis(SinkConfig.RETRY_INITIAL), config.millis(SinkConfig.RETRY_MAX)),
        config.seconds(SinkConfig.START_WAIT), StartWait.Clock.SYSTEM);
    edition = wait.run(owner, "migrations", c -> {
      List<String> applied = Migrator.migrate(c);
      Edition e = Edition.detect(c);
      log.info("sink migrations applied={} edition={} as={}", applied.size(), e.migrationSuffix(), owner.user());
      if (e == Edition.COMMUNITY) {
        new RetentionJob(config).installPolicies(c);
        new CompressionPolicies(config).install(c);
        new ContinuousAggregates(config).installPolicies(c);
      }
      return e;
    });
    wait.run(db, "writer", c -> null);
    if (edition == Edition.COMMUNITY) {
      logFailingBackgroundJobs();
    }
  }

  /** One line when TimescaleDB's background jobs (the policies installed above) have been failing. */
  private void logFailingBackgroundJobs() {
    try (Connection c = owner.open()) {
      BackgroundJobHealth.Report r = BackgroundJobHealth.read(c);
      if (r.failing()) {
        log.warn(r.logLine());
      }
    } catch (SQLException e) {
      log.warn("sink timescaledb background jobs unread error=\"{}\"", e.getMessage());
    }
  }

  private void startMaintenance() {
    maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sink-maintenance");
      t.setDaemon(true);
      return t;
    });
    long rollupS = config.seconds(SinkConfig.ROLLUP_INTERVAL).toSeconds();
    if (rollupS > 0) {
      Rollups rollups = Rollups.forEdition(edition, config);
      maintenance.scheduleWithFixedDelay(() -> runJob("rollup", c -> rollups.refresh(c)), rollupS, rollupS, TimeUnit.SECONDS);
    }
    long retentionM = config.minutes(SinkConfig.RETENTION_INTERVAL).toMinutes();
    if (retentionM > 0 && RetentionJob.scheduledBySink(edition)) {
      RetentionJob retention = new RetentionJob(config);
      maintenance.scheduleWithFixedDelay(() -> runJob("retention", c -> retention.dropExpired(c, Instant.now())),
          0, retentionM, TimeUnit.MINUTES);
    }
  }

  private interface Job {
    void run(Connection c) throws SQLException;
  }

  private void runJob(String name, Job job) {
    try (Connection c = db.open()) {
      job.run(c);
    } catch (SQLException | RuntimeException e) {
      log.warn("sink maintenance failed job={} error={} (retried next run)", name, e.getMessage());
    }
  }

  private Properties consumerProps(String clientId) {
    Properties p = kafkaClient.applyTo(new Properties());
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.string(SinkConfig.KAFKA));
    p.put(ConsumerConfig.GROUP_ID_CONFIG, config.string(SinkConfig.GROUP_ID));
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.string(SinkConfig.GROUP_ID) + "-" + clientId);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(config.integer(SinkConfig.MAX_POLL_RECORDS)));
    p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(config.integer(SinkConfig.FETCH_MAX_WAIT)));
    p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "65536");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
    return p;
  }

  /** The dead-letter producer's settings (package-private: its bounded wait is tested). */
  Properties producerProps() {
    Properties p = kafkaClient.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.string(SinkConfig.KAFKA));
    p.put(ProducerConfig.CLIENT_ID_CONFIG, config.string(SinkConfig.GROUP_ID) + "-dlq");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    // a worker waits for its dead letters before it commits offsets: bound that wait (a send that
    // cannot get metadata blocks up to max.block.ms, a queued one fails after delivery.timeout.ms)
    String dlqTimeout = String.valueOf(config.integer(SinkConfig.DLQ_TIMEOUT));
    p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, dlqTimeout);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, dlqTimeout);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, dlqTimeout);
    return p;
  }

  /** Stops the workers after their current batch and waits for them. */
  @Override
  public synchronized void close() {
    for (SinkWorker w : workers) {
      w.stop();
    }
    for (Thread t : threads) {
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (maintenance != null) {
      maintenance.shutdownNow();
    }
    if (dlqProducer != null) {
      dlqProducer.close(Duration.ofSeconds(5));
    }
    if (metricsServer != null) {
      metricsServer.close();
    }
    log.info("sink stopped {}", metrics);
  }
}
