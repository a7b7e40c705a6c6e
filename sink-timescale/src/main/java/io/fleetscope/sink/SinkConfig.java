package io.fleetscope.sink;

import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.config.Settings;
import io.fleetscope.schemas.config.Settings.Key;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of the sink, its query tools and its maintenance jobs, in one place. Each key is
 * declared once in {@link #KEYS} with its type, default and meaning; the settings file is YAML
 * ({@link #readFile}, {@link Settings}); unknown keys and bad values are refused at start with a
 * message naming the key.
 */
public final class SinkConfig {

  private static final Settings.Type S = Settings.Type.STRING;
  private static final Settings.Type I = Settings.Type.INTEGER;
  private static final Settings.Type L = Settings.Type.LIST;

  public static final Key KAFKA = new Key("kafka.bootstrap_servers", S, "127.0.0.1:19092", "Kafka bootstrap servers");
  public static final Key KAFKA_CONFIG = new Key("kafka.config_file", S, "", "Kafka client properties file: TLS, SASL and the registry's credentials (empty: $FLEETSCOPE_KAFKA_CONFIG, else none)");
  public static final Key REGISTRY = new Key("schema_registry.url", S, "http://127.0.0.1:18081", "schema registry base URL");
  public static final Key JDBC_URL = new Key("jdbc.url", S, "jdbc:postgresql://127.0.0.1:15432/fleetscope", "TimescaleDB JDBC URL");
  public static final Key JDBC_USER = new Key("jdbc.user", S, "fleetscope_sink", "database user the sink writes as (a member of fleetscope_writer)");
  public static final Key JDBC_PASSWORD = new Key("jdbc.password", S, "", "its password (empty: none; prefer --jdbc-password-file or $FLEETSCOPE_JDBC_PASSWORD)");
  public static final Key OWNER_USER = new Key("jdbc.owner_user", S, "fleetscope", "the database's owner, which applies the migrations (empty: jdbc.user applies them)");
  public static final Key OWNER_PASSWORD = new Key("jdbc.owner_password", S, "", "its password (empty: none; prefer --jdbc-owner-password-file or $FLEETSCOPE_JDBC_OWNER_PASSWORD)");
  public static final Key DB_ROLE = new Key("jdbc.role", S, "", "role to SET after connecting, e.g. fleetscope_writer (empty: the user's own)");
  public static final Key START_WAIT = new Key("jdbc.start_wait_seconds", I, "300", "at start, how long to wait for a database that is not reachable or not accepting connections yet (not listening, starting up, in recovery, shutting down), retrying with the sink.retry_* back-off; then the sink fails. 0: wait without limit. Bad password, unknown database or permission denied fail at once");
  public static final Key GROUP_ID = new Key("sink.group_id", S, "fleetscope-sink", "Kafka consumer group of the sink");
  public static final Key TOPICS = new Key("sink.topics", L, "", "topics to store (empty: every topic in Topics)");
  public static final Key WORKERS = new Key("sink.workers", I, "2", "consumer threads, each with its own partitions and database connection");
  public static final Key MAX_POLL_RECORDS = new Key("sink.max_poll_records", I, "5000", "records per poll = the most rows of one database transaction per worker (bounds memory)");
  public static final Key FETCH_MAX_WAIT = new Key("sink.fetch_max_wait_ms", I, "200", "how long the broker may wait to fill a fetch");
  public static final Key RETRY_INITIAL = new Key("sink.retry_initial_ms", I, "250", "first back-off while the database is unavailable");
  public static final Key RETRY_MAX = new Key("sink.retry_max_ms", I, "10000", "longest back-off while the database is unavailable");
  public static final Key COPY_MODE = new Key("sink.copy_mode", S, "direct-first", "direct-first: COPY straight into append-only tables under a savepoint, falling back to the staging path for a batch with an already stored row; staging: always COPY into a staging table, then INSERT ... ON CONFLICT DO NOTHING");
  public static final Key COPY_FORMAT = new Key("sink.copy_format", S, "binary", "binary: COPY in PostgreSQL's binary format (tables with a column type it does not cover use CSV); csv: COPY CSV text");
  public static final Key METRICS_ADDRESS = new Key("sink.metrics_address", S, "127.0.0.1", "IP address of the Prometheus metrics listener (GET /metrics); 0.0.0.0 only when written so");
  public static final Key METRICS_PORT = new Key("sink.metrics_port", I, "18084", "port of the Prometheus metrics listener (0: a free port, -1: no listener)");
  public static final Key DLQ_TOPIC = new Key("sink.dlq_topic", S, Topics.DLQ, "topic for records the sink rejects");
  public static final Key DLQ_TIMEOUT = new Key("sink.dlq_timeout_ms", I, "10000", "longest a worker waits for the broker to take a batch's dead letters (the DLQ producer's max.block.ms and delivery.timeout.ms); when it does not, the batch's offsets are not committed and the publish is retried with the sink.retry_* back-off (the rows and dead_letters rows are already stored)");
  public static final Key LOCK_TIMEOUT = new Key("sink.lock_timeout_ms", I, "10000", "longest a write waits for a lock (e.g. TimescaleDB creating or compressing a chunk of the same table); then the batch is rolled back and retried with the sink.retry_* back-off, logged with sqlstate=55P03. 0: wait without limit");
  public static final Key RAW_DAYS = new Key("retention.raw_days", I, "14", "raw and derived telemetry (gpu, ib, pdu, coolant, rail_bw, thermal_risk, ecc_trend)");
  public static final Key EVENTS_DAYS = new Key("retention.events_days", I, "400", "events (gpu_xid, ckpt, ckpt_slo, anomalies, inventory/jobs history, dead_letters)");
  public static final Key ROLLUP_DAYS = new Key("retention.rollup_days", I, "400", "1-minute and 1-hour rollups");
  public static final Key RETENTION_INTERVAL = new Key("retention.interval_minutes", I, "60", "how often the sink drops expired chunks (Apache edition); 0 disables");
  public static final Key ROLLUP_INTERVAL = new Key("rollup.interval_seconds", I, "30", "how often the sink refreshes invalidated rollup buckets; 0 disables");
  public static final Key ROLLUP_POLICY_HOURS = new Key("rollup.policy_window_hours", I, "6", "community edition: the refresh policies of the rail continuous aggregates recompute the buckets of the last N hours (every minute for rail_rollup_1m, every 30 minutes for rail_rollup_1h); older late rows and backfill are refreshed by the sink from the ranges it logged");
  public static final Key COMPRESS_RAW_DAYS = new Key("compression.raw_after_days", I, "2", "community edition: raw and derived telemetry chunks are compressed once all their rows are this old (late rows into a compressed chunk are still stored)");
  public static final Key COMPRESS_ROLLUP_DAYS = new Key("compression.rollup_after_days", I, "7", "community edition: the same for the 1-minute and 1-hour rollups (longer than rollup.policy_window_hours)");

  public static final List<Key> KEYS = List.of(KAFKA, KAFKA_CONFIG, REGISTRY, JDBC_URL, JDBC_USER, JDBC_PASSWORD, OWNER_USER, OWNER_PASSWORD, DB_ROLE, START_WAIT, GROUP_ID,
      TOPICS, WORKERS, MAX_POLL_RECORDS, FETCH_MAX_WAIT, COPY_MODE, COPY_FORMAT, RETRY_INITIAL, RETRY_MAX, METRICS_ADDRESS, METRICS_PORT, DLQ_TOPIC, DLQ_TIMEOUT, LOCK_TIMEOUT, RAW_DAYS, EVENTS_DAYS,
      ROLLUP_DAYS, RETENTION_INTERVAL, ROLLUP_INTERVAL, ROLLUP_POLICY_HOURS, COMPRESS_RAW_DAYS, COMPRESS_ROLLUP_DAYS);

  private final Map<String, String> values;

  private SinkConfig(Map<String, String> values) {
    this.values = values;
    validate();
  }

  /** Defaults overridden by the given settings; refuses unknown keys. */
  public static SinkConfig of(Map<String, String> overrides) {
    Map<String, String> v = new LinkedHashMap<>();
    for (Key k : KEYS) {
      v.put(k.name(), k.defaultValue());
    }
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      if (!v.containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown setting '" + e.getKey() + "'; known settings: " + String.join(", ", v.keySet()));
      }
      v.put(e.getKey(), e.getValue().trim());
    }
    return new SinkConfig(v);
  }

  public static SinkConfig defaults() {
    return of(Map.of());
  }

  /**
   * Reads a YAML settings file (sections kafka, schema_registry, jdbc, sink, retention, rollup; see
   * {@code sink.yaml.example}) into {@code section.key -> value}; settings given later (flags)
   * override it. Unknown keys and values of the wrong type are refused naming the key.
   */
  public static Map<String, String> readFile(Path file) {
    return Settings.read(file, KEYS);
  }

  /** The settings as a Markdown table, as in the module README. */
  public static String markdownTable() {
    return Settings.markdownTable(KEYS);
  }

  /** Every setting with its default and meaning, as a YAML settings file ({@code sink.yaml.example}). */
  public static String yamlTemplate() {
    return Settings.yamlTemplate("Settings of the TimescaleDB sink (sink --config FILE), every key with its default.\n"
        + "A file sets any subset of them; unknown keys and values of the wrong type are refused.\n"
        + "Generated from SinkConfig.KEYS (SinkConfigTest keeps it in step).", KEYS);
  }

  public SinkConfig with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    if (!m.containsKey(key)) {
      throw new IllegalArgumentException("unknown setting '" + key + "'");
    }
    m.put(key, value);
    return new SinkConfig(m);
  }

  private void validate() {
    positive(WORKERS);
    positive(MAX_POLL_RECORDS);
    nonNegative(FETCH_MAX_WAIT);
    positive(RETRY_INITIAL);
    positive(RETRY_MAX);
    positive(RAW_DAYS);
    positive(EVENTS_DAYS);
    positive(ROLLUP_DAYS);
    nonNegative(RETENTION_INTERVAL);
    nonNegative(ROLLUP_INTERVAL);
    positive(ROLLUP_POLICY_HOURS);
    positive(COMPRESS_RAW_DAYS);
    positive(COMPRESS_ROLLUP_DAYS);
    if (days(COMPRESS_ROLLUP_DAYS).compareTo(hours(ROLLUP_POLICY_HOURS)) <= 0) {
      throw new IllegalArgumentException(COMPRESS_ROLLUP_DAYS.name() + " (" + number(COMPRESS_ROLLUP_DAYS) + " days) must be longer than "
          + ROLLUP_POLICY_HOURS.name() + " (" + number(ROLLUP_POLICY_HOURS) + " hours): a refresh may not rewrite compressed buckets");
    }
    nonNegative(START_WAIT);
    if (number(DLQ_TIMEOUT) < 1000) {
      throw new IllegalArgumentException(DLQ_TIMEOUT.name() + " must be >= 1000, got " + number(DLQ_TIMEOUT));
    }
    nonNegative(LOCK_TIMEOUT);
    if (number(METRICS_PORT) < -1 || number(METRICS_PORT) > 65535) {
      throw new IllegalArgumentException(METRICS_PORT.name() + " must be -1 (off) or 0..65535, got " + number(METRICS_PORT));
    }
    io.fleetscope.schemas.cli.ListenAddress.parse(METRICS_ADDRESS.name(), string(METRICS_ADDRESS));
    if (!string(JDBC_URL).startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(JDBC_URL.name() + " must be a jdbc:postgresql: URL, got '" + string(JDBC_URL) + "'");
    }
    topics();
    directFirst();
    copyFormat();
  }

  /** sink.copy_format. */
  public io.fleetscope.sink.write.CopyFormat copyFormat() {
    try {
      return io.fleetscope.sink.write.CopyFormat.of(values.get(COPY_FORMAT.name()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(COPY_FORMAT.name() + " must be binary or csv, got '" + values.get(COPY_FORMAT.name()) + "'");
    }
  }

  /** Whether sink.copy_mode is direct-first. */
  public boolean directFirst() {
    String m = values.get(COPY_MODE.name());
    return switch (m) {
      case "staging" -> false;
      case "direct-first" -> true;
      default -> throw new IllegalArgumentException(COPY_MODE.name() + " must be staging or direct-first, got '" + m + "'");
    };
  }

  private long number(Key k) {
    String s = values.get(k.name());
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k.name() + " must be a whole number, got '" + s + "'");
    }
  }

  private void positive(Key k) {
    if (number(k) <= 0) {
      throw new IllegalArgumentException(k.name() + " must be > 0, got " + number(k));
    }
  }

  private void nonNegative(Key k) {
    if (number(k) < 0) {
      throw new IllegalArgumentException(k.name() + " must be >= 0, got " + number(k));
    }
  }

  public String string(Key k) {
    return values.get(k.name());
  }

  public int integer(Key k) {
    return Math.toIntExact(number(k));
  }

  public Duration millis(Key k) {
    return Duration.ofMillis(number(k));
  }

  public Duration days(Key k) {
    return Duration.ofDays(number(k));
  }

  public Duration hours(Key k) {
    return Duration.ofHours(number(k));
  }

  public Duration minutes(Key k) {
    return Duration.ofMinutes(number(k));
  }

  public Duration seconds(Key k) {
    return Duration.ofSeconds(number(k));
  }

  /** The topics to store, validated against {@link Topics}. */
  public List<String> topics() {
    String s = values.get(TOPICS.name());
    if (s.isBlank()) {
      return new ArrayList<>(Topics.all().keySet());
    }
    List<String> out = new ArrayList<>();
    for (String t : s.split(",")) {
      out.add(Topics.require(t.trim()).name());
    }
    return out;
  }

  public Map<String, String> asMap() {
    return Map.copyOf(values);
  }
}
