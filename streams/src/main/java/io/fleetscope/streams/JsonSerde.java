package io.fleetscope.streams;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** JSON serde for the correlator's own state-store values (Java records); never used on public topics. */
public final class JsonSerde<T> implements Serde<T> {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final Class<T> type;

  public JsonSerde(Class<T> type) {
    this.type = type;
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> {
      if (value == null) {
        return null;
      }
      try {
        return JSON.writeValueAsBytes(value);
      } catch (IOException e) {
        throw new SerializationException("cannot write " + type.getSimpleName() + " as JSON: " + e.getMessage(), e);
      }
    };
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, data) -> {
      if (data == null) {
        return null;
      }
      try {
        return JSON.readValue(data, type);
      } catch (IOException e) {
        throw new SerializationException("cannot read " + type.getSimpleName() + " from JSON: " + e.getMessage(), e);
      }
    };
  }
}
