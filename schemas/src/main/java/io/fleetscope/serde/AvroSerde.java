package io.fleetscope.serde;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka {@link Serde} over {@link AvroSerializer} and {@link AvroDeserializer}, for Kafka Streams. */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {
  private final AvroSerializer<T> serializer;
  private final AvroDeserializer<T> deserializer;

  public AvroSerde(SchemaRegistryClient registry, Class<T> valueClass) {
    this(registry, valueClass, null);
  }

  /** A serde whose deserializer waits out a registry that cannot answer (see {@link AvroDeserializer}). */
  public AvroSerde(SchemaRegistryClient registry, Class<T> valueClass, RegistryWait registryWait) {
    this.serializer = new AvroSerializer<>(registry);
    this.deserializer = new AvroDeserializer<>(registry, valueClass, registryWait);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    serializer.configure(configs, isKey);
    deserializer.configure(configs, isKey);
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }
}
