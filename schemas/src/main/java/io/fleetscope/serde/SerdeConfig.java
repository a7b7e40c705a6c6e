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

  private SerdeConfig() {}

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
