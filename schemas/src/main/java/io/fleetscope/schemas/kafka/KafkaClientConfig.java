package io.fleetscope.schemas.kafka;

import io.fleetscope.serde.RestSchemaRegistryClient;
import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The security settings of every FleetScope Kafka client, read from one Kafka client properties
 * file (as Kafka's own {@code --command-config} takes it) and applied the same way to every
 * producer, consumer, admin client, Streams app and Flink connector.
 *
 * <p>The file holds Kafka's {@code security.protocol}, {@code ssl.*} and {@code sasl.*} keys, and
 * the schema registry's basic-auth credentials as Confluent's clients take them
 * ({@code basic.auth.credentials.source=USER_INFO} with {@code basic.auth.user.info=user:password},
 * or the {@code schema.registry.} prefixed forms). Any other key is refused naming the file and the
 * key: the rest of a client's settings belong to the component. For example
 *
 * <pre>
 * security.protocol=SASL_SSL
 * sasl.mechanism=SCRAM-SHA-512
 * sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="sink" password="...";
 * ssl.truststore.location=/etc/fleetscope/truststore.p12
 * ssl.truststore.password=...
 * basic.auth.credentials.source=USER_INFO
 * basic.auth.user.info=sink:...
 * </pre>
 *
 * <p>Secrets are never shown: {@link #toString()} and {@link #describe()} print every key whose
 * value is a secret as {@code [hidden]}.
 */
public final class KafkaClientConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The environment variable naming the file when no flag or setting does. */
  public static final String ENV = "FLEETSCOPE_KAFKA_CONFIG";

  /** Confluent's key choosing where registry credentials come from ({@code USER_INFO} or {@code URL}). */
  public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
  /** Confluent's key holding {@code user:password} for the schema registry. */
  public static final String USER_INFO = "basic.auth.user.info";
  /** Prefix of the same keys in Confluent's serializer configuration. */
  public static final String REGISTRY_PREFIX = "schema.registry.";

  private static final List<String> KAFKA_PREFIXES = List.of("ssl.", "sasl.");
  private static final String SECURITY_PROTOCOL = "security.protocol";
  private static final List<String> SECRET_MARKS = List.of("password", "jaas", "user.info", "keystore.key", "secret",
      "token", "credentials");
  private static final KafkaClientConfig NONE = new KafkaClientConfig("(none)", Map.of(), null);

  private final String source;
  private final Map<String, String> kafka;
  private final String registryUserInfo;

  private KafkaClientConfig(String source, Map<String, String> kafka, String registryUserInfo) {
    this.source = source;
    this.kafka = Collections.unmodifiableMap(new TreeMap<>(kafka));
    this.registryUserInfo = registryUserInfo;
  }

  /** No security settings: plaintext Kafka, an open registry. */
  public static KafkaClientConfig none() {
    return NONE;
  }

  /**
   * The file named by {@code flagValue}, else by {@code $FLEETSCOPE_KAFKA_CONFIG} in {@code env},
   * else {@link #none()}.
   */
  public static KafkaClientConfig resolve(String flagValue, Map<String, String> env) {
    String file = flagValue != null && !flagValue.isBlank() ? flagValue.trim() : env.get(ENV);
    return file == null || file.isBlank() ? none() : load(Path.of(file.trim()));
  }

  /** Reads a Kafka client properties file; throws IllegalArgumentException naming the file and the problem. */
  public static KafkaClientConfig load(Path file) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read Kafka client config " + file + ": "
          + e.getClass().getSimpleName() + " " + e.getMessage(), e);
    }
    Map<String, String> m = new LinkedHashMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k).trim()));
    try {
      return of(file.toString(), m);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Kafka client config " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Settings from a map of client properties (as the agent's YAML {@code kafka.properties} gives
   * them): {@code source} names where they came from in messages.
   */
  public static KafkaClientConfig of(String source, Map<String, String> properties) {
    Map<String, String> kafka = new LinkedHashMap<>();
    String userInfo = null;
    String credentialsSource = null;
    for (Map.Entry<String, String> e : properties.entrySet()) {
      String key = e.getKey().trim();
      String value = e.getValue() == null ? "" : e.getValue().trim();
      String registryKey = key.startsWith(REGISTRY_PREFIX) ? key.substring(REGISTRY_PREFIX.length()) : key;
      if (registryKey.equals(USER_INFO)) {
        userInfo = value;
      } else if (registryKey.equals(CREDENTIALS_SOURCE)) {
        credentialsSource = value;
      } else if (isKafkaSecurityKey(key)) {
        kafka.put(key, value);
      } else {
        throw new IllegalArgumentException("'" + key + "' is not a security setting; a Kafka client config takes "
            + SECURITY_PROTOCOL + ", ssl.*, sasl.*, " + CREDENTIALS_SOURCE + " and " + USER_INFO
            + " (the component sets everything else)");
      }
    }
    return new KafkaClientConfig(source, kafka, registryUserInfo(credentialsSource, userInfo));
  }

  private static boolean isKafkaSecurityKey(String key) {
    return key.equals(SECURITY_PROTOCOL) || KAFKA_PREFIXES.stream().anyMatch(key::startsWith);
  }

  private static String registryUserInfo(String credentialsSource, String userInfo) {
    String src = credentialsSource == null || credentialsSource.isEmpty() ? null : credentialsSource.toUpperCase(Locale.ROOT);
    if (src != null && !src.equals("USER_INFO") && !src.equals("URL")) {
      throw new IllegalArgumentException(CREDENTIALS_SOURCE + " must be USER_INFO or URL, got '" + credentialsSource + "'");
    }
    if ("URL".equals(src)) {
      if (userInfo != null) {
        throw new IllegalArgumentException(CREDENTIALS_SOURCE + "=URL takes the credentials from the registry URL;"
            + " remove " + USER_INFO + " or set USER_INFO");
      }
      return null;
    }
    if (userInfo == null) {
      if ("USER_INFO".equals(src)) {
        throw new IllegalArgumentException(CREDENTIALS_SOURCE + "=USER_INFO needs " + USER_INFO + "=user:password");
      }
      return null;
    }
    if (userInfo.indexOf(':') <= 0) {
      throw new IllegalArgumentException(USER_INFO + " must be user:password");
    }
    return userInfo;
  }

  /** The Kafka client properties of the file (security.protocol, ssl.*, sasl.*), to add to a client's own. */
  public Map<String, String> kafkaProperties() {
    return kafka;
  }

  /** Adds the security properties to {@code clientProperties} (replacing the same keys) and returns it. */
  public Properties applyTo(Properties clientProperties) {
    clientProperties.putAll(kafka);
    return clientProperties;
  }

  /** As {@link #applyTo(Properties)} for a client configured by a map. */
  public <M extends Map<String, Object>> M applyTo(M clientProperties) {
    clientProperties.putAll(kafka);
    return clientProperties;
  }

  /** {@code user:password} for the schema registry's basic auth, when the file gives it. */
  public Optional<String> registryUserInfo() {
    return Optional.ofNullable(registryUserInfo);
  }

  /**
   * A registry client for {@code registryUrl} that sends this file's registry credentials (or, when
   * it gives none, the URL's own user info).
   */
  public RestSchemaRegistryClient registryClient(String registryUrl) {
    return new RestSchemaRegistryClient(registryUrl, registryUserInfo);
  }

  /** Whether the file sets anything. */
  public boolean isEmpty() {
    return kafka.isEmpty() && registryUserInfo == null;
  }

  /** Where the settings came from: a file name, or {@code (none)}. */
  public String source() {
    return source;
  }

  /** One line for an operator log: {@code source=FILE security.protocol=SASL_SSL sasl.jaas.config=[hidden] ...}. */
  public String describe() {
    StringJoiner j = new StringJoiner(" ");
    j.add("source=" + source);
    kafka.forEach((k, v) -> j.add(k + "=" + (isSecret(k) ? "[hidden]" : v)));
    if (registryUserInfo != null) {
      j.add("registry_user=" + registryUserInfo.substring(0, registryUserInfo.indexOf(':')));
    }
    return j.toString();
  }

  /** Whether the value of {@code key} is a secret that is never shown. */
  public static boolean isSecret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return SECRET_MARKS.stream().anyMatch(k::contains);
  }

  @Override
  public String toString() {
    return "KafkaClientConfig[" + describe() + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KafkaClientConfig c && c.kafka.equals(kafka) && Objects.equals(c.registryUserInfo, registryUserInfo);
  }

  @Override
  public int hashCode() {
    return kafka.hashCode() * 31 + Objects.hashCode(registryUserInfo);
  }
}
