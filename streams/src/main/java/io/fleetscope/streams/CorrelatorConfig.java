package io.fleetscope.streams;

import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.contract.Runbooks;
import io.fleetscope.schemas.config.Settings;
import io.fleetscope.schemas.config.Settings.Key;
import io.fleetscope.serde.Backoff;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every setting of the correlator, in one typed place. Each key is declared once below with its
 * type, default and meaning; {@link #describe()} prints them. Values come from a YAML settings file
 * ({@code --config}, section {@code correlator:}, read by {@link Settings}) and command-line flags;
 * unknown keys and bad values are refused with a message naming the key.
 */
public final class CorrelatorConfig {
  private static final Settings.Type STRING = Settings.Type.STRING;
  private static final Settings.Type INTEGER = Settings.Type.INTEGER;
  private static final Settings.Type LIST = Settings.Type.LIST;

  private static final Map<String, Key> KEYS = new LinkedHashMap<>();

  private static String key(String name, Settings.Type type, String dflt, String doc) {
    KEYS.put(name, new Key(name, type, dflt, doc));
    return name;
  }

  public static final String APPLICATION_ID = key("correlator.application_id", STRING, "fleetscope-correlator",
      "Kafka Streams application.id (consumer group, prefix of internal topics)");
  public static final String KAFKA = key("correlator.kafka", STRING, "127.0.0.1:19092", "Kafka bootstrap servers");
  public static final String KAFKA_CONFIG = key("correlator.kafka_config_file", STRING, "",
      "Kafka client properties file: TLS, SASL and the registry's credentials (empty: $FLEETSCOPE_KAFKA_CONFIG, else none)");
  public static final String REGISTRY = key("correlator.registry", STRING, "http://127.0.0.1:18081", "schema registry base URL");
  public static final String ALERTMANAGER = key("correlator.alertmanager", STRING, "http://127.0.0.1:19093",
      "Alertmanager base URL (alerts are POSTed to <url>/api/v2/alerts); empty = no Alertmanager");
  public static final String WEBHOOK = key("correlator.webhook_url", STRING, "",
      "generic webhook receiver URL that gets Alertmanager's webhook payload (version 4); empty = none");
  public static final String WEBHOOK_RECEIVER = key("correlator.webhook_receiver", STRING, "fleetscope",
      "receiver name written into webhook payloads");
  public static final String HTTP_PORT = key("correlator.http_port", INTEGER, "18083",
      "port of the incidents HTTP API; 0 = any free port, -1 = no HTTP API");
  public static final String HTTP_ADDRESS = key("correlator.http_address", STRING, "127.0.0.1",
      "IP address the incidents HTTP API listens on (127.0.0.1: this machine only)");
  public static final String STATE_DIR = key("correlator.state_dir", STRING, ".fleetscope/streams", "Kafka Streams state directory");
  public static final String TOPIC_ANOMALIES = key("correlator.topic_anomalies", STRING, Topics.ANOMALIES, "input: anomaly state changes");
  public static final String TOPIC_INVENTORY = key("correlator.topic_inventory", STRING, Topics.INVENTORY, "input: topology (GlobalKTable)");
  public static final String TOPIC_JOBS = key("correlator.topic_jobs", STRING, Topics.JOBS,
      "input: which job owns which GPUs of each node (GlobalKTable), for the jobs an incident touches");
  public static final String TOPIC_CKPT = key("correlator.topic_ckpt", STRING, Topics.CKPT,
      "input: checkpoint events; the last completed checkpoint of each job is kept (global store) for its age");
  public static final String TOPIC_ALERTS = key("correlator.topic_alerts", STRING, Topics.ALERTS, "output: incident-level alerts");
  public static final String TOPIC_DLQ = key("correlator.topic_dlq", STRING, Topics.DLQ, "output: rejected anomaly records");
  public static final String MIN_FIRING = key("correlator.min_firing_seconds", INTEGER, "0",
      "an anomaly must stay firing this long before it pages (like Prometheus 'for'); 0 = at once");
  public static final String FLAP_HOLD = key("correlator.flap_hold_seconds", INTEGER, "60",
      "a resolution is held this long; an anomaly that fires again within it never stopped firing");
  public static final String REPLAY_HORIZON = key("correlator.replay_horizon_seconds", INTEGER, "3600",
      "a resolved anomaly is remembered this long: the analytics' outputs are at-least-once, and after a "
          + "recovery they re-emit what followed their last checkpoint; a firing that started before the "
          + "remembered episode ended is that history again and neither pages nor reopens it");
  public static final String RESEND = key("correlator.resend_interval_seconds", INTEGER, "60",
      "firing alerts are re-sent to Alertmanager this often, so an Alertmanager restart loses nothing");
  public static final String VALIDITY = key("correlator.alert_validity_seconds", INTEGER, "240",
      "endsAt of a firing alert = send time + this; must exceed the resend interval (Alertmanager "
          + "resolves an alert nobody re-sends after this long)");
  public static final String RESOLVED_RESEND = key("correlator.resolved_resend_seconds", INTEGER, "900",
      "after Alertmanager acknowledged a resolution it is re-sent (every resend interval) for this long, "
          + "like Prometheus does, so a late or re-ordered firing update cannot leave the alert active; 0 = send once");
  public static final String RETRY_INITIAL = key("correlator.retry_initial_ms", INTEGER, "500",
      "first back-off after a failed delivery; doubles up to correlator.retry_max_ms");
  public static final String RETRY_MAX = key("correlator.retry_max_ms", INTEGER, "30000", "longest back-off between delivery attempts");
  public static final String REGISTRY_WAIT_INITIAL = key("correlator.registry_wait_initial_ms", INTEGER, "200",
      "first back-off while the schema registry cannot answer (down, restarting, 5xx); doubles up to "
          + "correlator.registry_wait_max_ms. Records wait for it, never go to the DLQ for it");
  public static final String REGISTRY_WAIT_MAX = key("correlator.registry_wait_max_ms", INTEGER, "10000",
      "longest back-off between two questions to a schema registry that cannot answer");
  public static final String HTTP_TIMEOUT = key("correlator.delivery_timeout_ms", INTEGER, "5000", "timeout of one delivery request");
  public static final String BATCH_MAX = key("correlator.delivery_batch_max", INTEGER, "500", "most alerts in one delivery request");
  public static final String TICK = key("correlator.tick_ms", INTEGER, "200",
      "wall-clock period of the hold-down and delivery punctuators");
  public static final String RESOLVED_RETENTION = key("correlator.resolved_retention_hours", INTEGER, "168",
      "resolved incidents stay in the incidents store this long (their version keeps counting if they return)");
  public static final String INVENTORY_CACHE = key("correlator.inventory_cache_ms", INTEGER, "10000",
      "how long the grouping stage remembers an inventory lookup (topology changes reach grouping within this); 0 = no cache");
  public static final String STANDBY_REPLICAS = key("correlator.standby_replicas", INTEGER, "0",
      "Kafka Streams standby replicas: warm copies of each state store kept by other instances, so that a"
          + " fail-over does not replay the changelog; useful with two or more instances");
  public static final String CAUSE_ALERTS = key("correlator.group_cause_alertnames", LIST,
      "CoolantFlowLow,CoolantSupplyHot,CoolantLeak,RackPowerOverCooling",
      "facility anomalies that become the root cause of an incident grouping the GPU alerts behind them");
  public static final String RACK_SCOPED_CAUSES = key("correlator.group_rack_alertnames", LIST, "RackPowerOverCooling",
      "causes scoped to a rack (label rack); the other causes are scoped to a CDU loop (labels loop/cdu_loop, device/cdu)");
  public static final String GPU_MEMBER_ALERTS = key("correlator.group_gpu_alertnames", LIST,
      "GpuThermalThrottleRisk,GpuThrottling,GpuPeerOutlier",
      "GPU alerts that join a cooling or power incident behind them (ECC and XID alerts stay separate)");
  public static final String PORT_ALERTS = key("correlator.group_port_alertnames", LIST, "IbLinkDown,IbLinkDegraded,IbSymbolErrors",
      "port alerts grouped into one incident per (cluster, rail)");
  public static final String RAIL_ALERTNAME = key("correlator.rail_alertname", STRING, "IbRailDegraded", "alertname of a rail incident");
  public static final String RAIL_SEVERITY = key("correlator.rail_severity", STRING, "critical", "severity of a rail incident");
  public static final String RUNBOOK_BASE = key("correlator.runbook_base_url", STRING, Runbooks.BASE,
      "runbook_url annotation = <this>#<alertname lowercased>");
  public static final String GENERATOR_BASE = key("correlator.generator_url", STRING, "http://127.0.0.1:18083/api/v1/incidents/",
      "generatorURL sent to Alertmanager = <this><incident fingerprint>");

  private final Map<String, String> values;

  private CorrelatorConfig(Map<String, String> values) {
    this.values = values;
    validate();
  }

  public static CorrelatorConfig defaults() {
    return of(Map.of());
  }

  /** A config from explicit overrides on top of the defaults. */
  public static CorrelatorConfig of(Map<String, String> overrides) {
    Map<String, String> v = new LinkedHashMap<>();
    KEYS.values().forEach(k -> v.put(k.name(), k.defaultValue()));
    overrides.forEach((k, val) -> {
      if (!KEYS.containsKey(k)) {
        throw new IllegalArgumentException("unknown correlator setting '" + k + "'; known settings: " + String.join(", ", KEYS.keySet()));
      }
      v.put(k, val == null ? "" : val.trim());
    });
    return new CorrelatorConfig(Collections.unmodifiableMap(v));
  }

  /**
   * Reads a YAML settings file (section {@code correlator:}, see {@code correlator.yaml.example}),
   * then applies {@code overrides} (command-line flags) on top. Unknown keys and values of the wrong
   * type are refused naming the key.
   */
  public static CorrelatorConfig load(Path file, Map<String, String> overrides) {
    Map<String, String> m = new LinkedHashMap<>();
    if (file != null) {
      m.putAll(Settings.read(file, keys()));
    }
    m.putAll(overrides);
    return of(m);
  }

  /** The settings as a Markdown table, as in the module README. */
  public static String markdownTable() {
    return Settings.markdownTable(keys());
  }

  /** Every setting with its default and meaning, as a YAML settings file ({@code correlator.yaml.example}). */
  public static String yamlTemplate() {
    return Settings.yamlTemplate("Settings of the alert correlator (correlator --config FILE), every key with its default.\n"
        + "A file sets any subset of them; unknown keys and values of the wrong type are refused.\n"
        + "Generated from CorrelatorConfig's declarations (CorrelatorConfigTest keeps it in step).", keys());
  }

  public CorrelatorConfig with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.put(key, value);
    return of(m);
  }

  private void validate() {
    positiveOrZero(MIN_FIRING);
    positiveOrZero(FLAP_HOLD);
    positiveOrZero(REPLAY_HORIZON);
    positive(RESEND);
    positive(VALIDITY);
    positiveOrZero(RESOLVED_RESEND);
    positive(RETRY_INITIAL);
    positive(RETRY_MAX);
    positive(HTTP_TIMEOUT);
    positive(REGISTRY_WAIT_INITIAL);
    positive(REGISTRY_WAIT_MAX);
    if (millis(REGISTRY_WAIT_MAX).compareTo(millis(REGISTRY_WAIT_INITIAL)) < 0) {
      throw new IllegalArgumentException(REGISTRY_WAIT_MAX + " must be >= " + REGISTRY_WAIT_INITIAL);
    }
    positive(BATCH_MAX);
    positive(TICK);
    positive(RESOLVED_RETENTION);
    positiveOrZero(INVENTORY_CACHE);
    positiveOrZero(STANDBY_REPLICAS);
    longValue(HTTP_PORT);
    io.fleetscope.schemas.cli.ListenAddress.parse(HTTP_ADDRESS, get(HTTP_ADDRESS));
    if (validity().compareTo(resendInterval()) <= 0) {
      throw new IllegalArgumentException(VALIDITY + "=" + get(VALIDITY) + " must be greater than " + RESEND + "="
          + get(RESEND) + ", or firing alerts expire in Alertmanager between two re-sends");
    }
    if (retryMax().compareTo(retryInitial()) < 0) {
      throw new IllegalArgumentException(RETRY_MAX + " must be >= " + RETRY_INITIAL);
    }
    for (String k : List.of(APPLICATION_ID, TOPIC_ANOMALIES, TOPIC_INVENTORY, TOPIC_ALERTS, TOPIC_DLQ, RAIL_ALERTNAME)) {
      if (get(k).isEmpty()) {
        throw new IllegalArgumentException(k + " must not be empty");
      }
    }
  }

  private long longValue(String k) {
    try {
      return Long.parseLong(get(k));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + "='" + get(k) + "' is not a whole number");
    }
  }

  private void positive(String k) {
    if (longValue(k) <= 0) {
      throw new IllegalArgumentException(k + "=" + get(k) + " must be > 0");
    }
  }

  private void positiveOrZero(String k) {
    if (longValue(k) < 0) {
      throw new IllegalArgumentException(k + "=" + get(k) + " must be >= 0");
    }
  }

  /** Every setting as {@code key -> value}. */
  public Map<String, String> values() {
    return Collections.unmodifiableMap(values);
  }

  /** Defaults overridden by YAML settings text (section {@code correlator:}), as a bundle records them. */
  public static CorrelatorConfig fromYaml(String text) {
    return of(Settings.parse(text, keys()));
  }

  /**
   * Whether a setting changes which incidents, versions and notifications come out of the same
   * anomalies (not endpoints, ports, topic names, delivery retries or state directories).
   */
  public static boolean shapesIncidents(String key) {
    return !Set.of(APPLICATION_ID, KAFKA, KAFKA_CONFIG, REGISTRY, ALERTMANAGER, WEBHOOK, WEBHOOK_RECEIVER, HTTP_PORT, HTTP_ADDRESS,
        STATE_DIR, TOPIC_ANOMALIES, TOPIC_INVENTORY, TOPIC_JOBS, TOPIC_CKPT, TOPIC_ALERTS, TOPIC_DLQ, RETRY_INITIAL, RETRY_MAX,
        REGISTRY_WAIT_INITIAL, REGISTRY_WAIT_MAX, HTTP_TIMEOUT, BATCH_MAX, STANDBY_REPLICAS, GENERATOR_BASE, INVENTORY_CACHE)
        .contains(key);
  }

  public String get(String k) {
    String v = values.get(k);
    if (v == null) {
      throw new IllegalArgumentException("unknown correlator setting '" + k + "'");
    }
    return v;
  }

  private Set<String> set(String k) {
    return Set.copyOf(list(k));
  }

  private List<String> list(String k) {
    List<String> out = new ArrayList<>();
    for (String s : get(k).split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  private Duration seconds(String k) {
    return Duration.ofSeconds(longValue(k));
  }

  private Duration millis(String k) {
    return Duration.ofMillis(longValue(k));
  }

  public String applicationId() { return get(APPLICATION_ID); }
  public String kafka() { return get(KAFKA); }
  public String registry() { return get(REGISTRY); }
  /** The Kafka client security settings: the file {@link #KAFKA_CONFIG} names, else $FLEETSCOPE_KAFKA_CONFIG's, else none. */
  public io.fleetscope.schemas.kafka.KafkaClientConfig kafkaClient() {
    return io.fleetscope.schemas.kafka.KafkaClientConfig.resolve(get(KAFKA_CONFIG), System.getenv());
  }
  public String alertmanager() { return get(ALERTMANAGER); }
  public String webhookUrl() { return get(WEBHOOK); }
  public String webhookReceiver() { return get(WEBHOOK_RECEIVER); }
  public int httpPort() { return (int) longValue(HTTP_PORT); }
  public String httpAddress() { return get(HTTP_ADDRESS).trim(); }
  public String stateDir() { return get(STATE_DIR); }
  public String anomaliesTopic() { return get(TOPIC_ANOMALIES); }
  public String inventoryTopic() { return get(TOPIC_INVENTORY); }
  public String jobsTopic() { return get(TOPIC_JOBS); }
  public String ckptTopic() { return get(TOPIC_CKPT); }
  public String alertsTopic() { return get(TOPIC_ALERTS); }
  public String dlqTopic() { return get(TOPIC_DLQ); }
  public Duration minFiring() { return seconds(MIN_FIRING); }
  public Duration flapHold() { return seconds(FLAP_HOLD); }
  public Duration replayHorizon() { return seconds(REPLAY_HORIZON); }
  public Duration resendInterval() { return seconds(RESEND); }
  public Duration validity() { return seconds(VALIDITY); }
  public Duration resolvedResend() { return seconds(RESOLVED_RESEND); }
  public Duration retryInitial() { return millis(RETRY_INITIAL); }
  public Duration retryMax() { return millis(RETRY_MAX); }
  public Duration deliveryTimeout() { return millis(HTTP_TIMEOUT); }
  public Backoff registryBackoff() { return new Backoff(millis(REGISTRY_WAIT_INITIAL), millis(REGISTRY_WAIT_MAX)); }
  public int batchMax() { return (int) longValue(BATCH_MAX); }
  public Duration tick() { return millis(TICK); }
  public Duration resolvedRetention() { return Duration.ofHours(longValue(RESOLVED_RETENTION)); }
  public Duration inventoryCache() { return millis(INVENTORY_CACHE); }
  public int standbyReplicas() { return (int) longValue(STANDBY_REPLICAS); }
  public Set<String> causeAlertnames() { return set(CAUSE_ALERTS); }
  public Set<String> rackScopedCauses() { return set(RACK_SCOPED_CAUSES); }
  public Set<String> gpuMemberAlertnames() { return set(GPU_MEMBER_ALERTS); }
  public List<String> portAlertnames() { return list(PORT_ALERTS); }
  public String railAlertname() { return get(RAIL_ALERTNAME); }
  public String railSeverity() { return get(RAIL_SEVERITY); }
  public String runbookBase() { return get(RUNBOOK_BASE); }
  public String generatorBase() { return get(GENERATOR_BASE); }

  /** The declared keys with defaults and docs, for --help and the docs. */
  public static List<Key> keys() {
    return List.copyOf(KEYS.values());
  }

  public static String describe() {
    StringBuilder b = new StringBuilder();
    for (Key k : KEYS.values()) {
      b.append(k.name()).append(" (").append(k.type().label()).append(", default '").append(k.defaultValue()).append("'): ")
          .append(k.doc()).append('\n');
    }
    return b.toString();
  }

  public Map<String, String> asMap() {
    return values;
  }
}
