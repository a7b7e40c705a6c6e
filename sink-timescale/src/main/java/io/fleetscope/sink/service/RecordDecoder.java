package io.fleetscope.sink.service;

import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RegistryException;
import io.fleetscope.serde.SchemaRegistryClient;
import io.fleetscope.sink.write.Reject;
import io.fleetscope.sink.write.SinkRecord;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes consumed bytes with the schemas module's Confluent wire-format deserializer into the
 * topic's reader class. Keys are UTF-8 strings (node, device, fingerprint, cluster/rail).
 */
public final class RecordDecoder {
  private final SchemaRegistryClient registry;
  private final Map<String, AvroDeserializer<? extends SpecificRecord>> deserializers = new HashMap<>();

  /** A decoded record or the reason it could not be decoded. */
  public record Decoded(SinkRecord record, Reject reject) {}

  public RecordDecoder(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  public Decoded decode(ConsumerRecord<byte[], byte[]> cr) {
    String key = cr.key() == null ? null : new String(cr.key(), StandardCharsets.UTF_8);
    Topics.TopicSpec spec = Topics.require(cr.topic());
    if (cr.value() == null) {
      SinkRecord tomb = new SinkRecord(cr.topic(), cr.partition(), cr.offset(), key, null, null);
      if (spec.compacted() && key != null) {
        return new Decoded(tomb, null);
      }
      return new Decoded(null, new Reject(tomb, spec.compacted() ? "tombstone without a key"
          : "null value on non-compacted topic " + cr.topic(), "NullValue"));
    }
    SinkRecord raw = new SinkRecord(cr.topic(), cr.partition(), cr.offset(), key, cr.value(), null);
    try {
      SpecificRecord v = deserializer(spec).deserialize(cr.topic(), cr.value());
      if (v == null) {
        return new Decoded(null, new Reject(raw, "decoded to null", "NullValue"));
      }
      return new Decoded(new SinkRecord(cr.topic(), cr.partition(), cr.offset(), key, cr.value(), v), null);
    } catch (RuntimeException e) {
      if (registryUnavailable(e)) {
        throw new RegistryUnavailableException("schema registry unavailable while decoding " + cr.topic() + ": " + e.getMessage(), e);
      }
      return new Decoded(null, Reject.of(raw, e));
    }
  }

  /** The registry could not be asked (down, 5xx): not the record's fault, so retry, never dead-letter. */
  static boolean registryUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RegistryException re) {
        return re.isUnreachable() || re.httpStatus() >= 500;
      }
    }
    return false;
  }

  /** Thrown when the registry is unreachable: the batch is retried later. */
  public static final class RegistryUnavailableException extends RuntimeException {
    RegistryUnavailableException(String m, Throwable cause) {
      super(m, cause);
    }
  }

  private AvroDeserializer<? extends SpecificRecord> deserializer(Topics.TopicSpec spec) {
    return deserializers.computeIfAbsent(spec.name(), n -> newDeserializer(spec.valueClass()));
  }

  private <T extends SpecificRecord> AvroDeserializer<T> newDeserializer(Class<T> c) {
    return new AvroDeserializer<>(registry, c);
  }
}
