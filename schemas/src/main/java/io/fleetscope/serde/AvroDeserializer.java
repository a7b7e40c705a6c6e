package io.fleetscope.serde;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for the Confluent wire format. The writer schema is fetched by id (once) and
 * resolved to the reader class's schema with Avro's schema resolution, so records written by an older
 * or newer agent (added optional fields) are read. Every failure is a {@link SerializationException}
 * saying why: bad framing, unknown schema id, unreachable registry, or a schema that cannot be
 * resolved to the reader.
 */
public class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
  private SchemaRegistryClient registry;
  /** Null: a registry that cannot answer fails the call (the caller retries); else it is waited out. */
  private RegistryWait registryWait;
  private Class<T> readerClass;
  private Schema readerSchema;
  private final Map<Integer, Resolved<T>> readers = new ConcurrentHashMap<>();
  /**
   * Per thread, a reader for records written with exactly the reader class's schema (the common
   * case): the generated class decodes itself without Avro's resolving grammar. Null where the
   * class is not flat (DirectRecordReader); such records and those of other writer schemas go
   * through Avro's resolving reader.
   */
  private final ThreadLocal<DirectRecordReader<T>> direct = ThreadLocal.withInitial(() -> DirectRecordReader.forClass(readerClass));
  /**
   * The generated classes decode themselves ({@code customDecode}, with the resolving decoder doing
   * the schema resolution); Avro's default, its "fast reader" built per schema pair, took 1.5x the
   * CPU for a fleet.ib.v1 record and about the same for fleet.gpu.v1 (DecodeBenchmark in
   * flink-jobs). System property {@code fleetscope.avro.custom-coders=false} turns it back on (for
   * that comparison).
   */
  private final SpecificData data = readerData();
  private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();

  /** For Kafka's reflective construction; {@link #configure} must follow. */
  public AvroDeserializer() {}

  public AvroDeserializer(SchemaRegistryClient registry, Class<T> readerClass) {
    this(registry, readerClass, null);
  }

  /**
   * A deserializer that waits out a registry that cannot answer (down, restarting, 5xx) with
   * {@code registryWait}, blocking the calling consumer, instead of failing the record: only a
   * schema id the registry does not know (or cannot be read) fails it. While waiting,
   * {@link RegistryWaitAbortedException} ends the call if the thread is interrupted or the wait
   * cancelled; callers let it propagate.
   */
  public AvroDeserializer(SchemaRegistryClient registry, Class<T> readerClass, RegistryWait registryWait) {
    this.registry = registry;
    this.registryWait = registryWait;
    setReaderClass(readerClass);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void configure(Map<String, ?> configs, boolean isKey) {
    if (registry == null) {
      registry = new RestSchemaRegistryClient(SerdeConfig.requireString(configs, SerdeConfig.REGISTRY_URL),
          SerdeConfig.registryUserInfo(configs));
    }
    if (readerClass == null) {
      String name = SerdeConfig.requireString(configs, SerdeConfig.VALUE_CLASS);
      try {
        Class<?> c = Class.forName(name);
        if (!SpecificRecord.class.isAssignableFrom(c)) {
          throw new ConfigException(SerdeConfig.VALUE_CLASS, name, "is not a generated Avro SpecificRecord class");
        }
        setReaderClass((Class<T>) c);
      } catch (ClassNotFoundException e) {
        throw new ConfigException(SerdeConfig.VALUE_CLASS, name, "class not found");
      }
    }
  }

  private static SpecificData readerData() {
    SpecificData d = new SpecificData();
    boolean custom = DirectRecordReader.customCoders();
    d.setCustomCoders(custom);
    d.setFastReaderEnabled(!custom);
    return d;
  }

  private void setReaderClass(Class<T> c) {
    this.readerClass = c;
    this.readerSchema = SpecificData.get().getSchema(c);
  }

  public Class<T> readerClass() {
    return readerClass;
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    if (data == null) {
      return null; // tombstone
    }
    int id = WireFormat.schemaId(data);
    Resolved<T> resolved = readerFor(id, topic);
    try {
      if (resolved.sameSchema()) {
        DirectRecordReader<T> d = direct.get();
        if (d != null) {
          return d.read(data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE);
        }
      }
      SpecificDatumReader<T> reader = resolved.reader();
      BinaryDecoder dec = DecoderFactory.get().binaryDecoder(data, WireFormat.HEADER_SIZE,
          data.length - WireFormat.HEADER_SIZE, decoders.get());
      decoders.set(dec);
      T value = reader.read(null, new LengthBoundedDecoder(dec, data.length - WireFormat.HEADER_SIZE));
      if (!dec.isEnd()) {
        throw new SerializationException("topic " + topic + " schema id " + id + ": "
            + "trailing bytes after the record (payload does not match its schema)");
      }
      return value;
    } catch (SerializationException e) {
      throw e;
    } catch (Exception e) {
      throw new SerializationException("topic " + topic + " schema id " + id + ": cannot decode as "
          + readerSchema.getFullName() + ": " + e.getClass().getSimpleName() + " " + e.getMessage(), e);
    }
  }

  /** Avro's reader for one writer schema id, and whether that schema is the reader's own. */
  private record Resolved<T>(SpecificDatumReader<T> reader, boolean sameSchema) {}

  private Resolved<T> readerFor(int id, String topic) {
    Resolved<T> r = readers.get(id);
    if (r != null) {
      return r;
    }
    Schema writer;
    try {
      writer = registryWait == null ? registry.getById(id)
          : registryWait.call("schema id " + id + " topic " + topic, () -> registry.getById(id));
    } catch (RegistryException e) {
      if (e.isNotFound()) {
        throw new SerializationException("topic " + topic + ": unknown schema id " + id + " (not in the registry: http="
            + e.httpStatus() + " error_code=" + e.errorCode() + ")", e);
      }
      throw new SerializationException("topic " + topic + ": cannot fetch schema id " + id + ": " + e.getMessage(), e);
    }
    try {
      r = new Resolved<>(new SpecificDatumReader<>(writer, readerSchema, data), writer.equals(readerSchema));
    } catch (AvroTypeException e) {
      throw new SerializationException("topic " + topic + ": schema id " + id + " cannot be read as "
          + readerSchema.getFullName() + ": " + e.getMessage(), e);
    }
    readers.put(id, r);
    return r;
  }
}
