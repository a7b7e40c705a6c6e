package io.fleetscope.serde;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/** Configuration keys of {@link AvroSerializer} and {@link AvroDeserializer} when Kafka configures them. */
public final class SerdeConfig {
  /** Base URL of the schema registry, e.g. {@code http://127.0.0.1:18081}. Required. */
  public static final String REGISTRY_URL = "schema.registry.url";
  /** Fully qualified name of the generated Avro class the deserializer reads into. Required for values. */
  public static final String VALUE_CLASS = "fleetscope.value.class";
  /** Whether the serializer registers its schema (default true); when false the schema must exist. */
  public static final String AUTO_REGISTER = "auto.register.schemas";

  /** Confluent's key choosing where registry credentials come from: {@code USER_INFO} or {@code URL} (the default). */
  public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
  /** Confluent's key holding {@code user:password} when the source is {@code USER_INFO}. */
  public static final String USER_INFO = "basic.auth.user.info";

  private SerdeConfig() {}

  /**
   * The registry's {@code user:password} as Confluent's serializers read it: {@link #USER_INFO}
   * (or {@code schema.registry.basic.auth.user.info}) when the credentials source is
   * {@code USER_INFO} or unset; null otherwise (the URL's own user info is used then).
   */
  static String registryUserInfo(Map<String, ?> configs) {
    Object source = configs.containsKey(CREDENTIALS_SOURCE) ? configs.get(CREDENTIALS_SOURCE)
        : configs.get("schema.registry." + CREDENTIALS_SOURCE);
    if (source != null && !"USER_INFO".equalsIgnoreCase(source.toString().trim())) {
      return null;
    }
    Object info = configs.containsKey(USER_INFO) ? configs.get(USER_INFO) : configs.get("schema.registry." + USER_INFO);
    return info == null || info.toString().isBlank() ? null : info.toString().trim();
  }

  static String requireString(Map<String, ?> configs, String key) {
    Object v = configs.get(key);
    if (v == null || v.toString().isBlank()) {
      throw new ConfigException(key, v, "is required");
    }
    return v.toString();
  }

  static boolean bool(Map<String, ?> configs, String key, boolean dflt) {
    Object v = configs.get(key);
    return v == null ? dflt : Boolean.parseBoolean(v.toString());
  }
}
