package io.fleetscope.flink.io;

import io.fleetscope.serde.ArrayEncoder;
import io.fleetscope.serde.DirectRecordReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer for Avro SpecificRecords of a fixed set of classes, written as Avro binary
 * (one tag byte naming the class when there is more than one, a length, the Avro bytes). Used
 * instead of Kryo (which cannot handle Avro's generated classes reliably) and instead of
 * flink-avro (not released for Flink 2.2 with avro 1.12 at the time of writing).
 * Not thread safe: Flink calls {@link #duplicate()} per thread.
 */
public final class AvroRecordSerializer<T extends SpecificRecord> extends TypeSerializer<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> typeClass;
  private final List<Class<? extends SpecificRecord>> classes;

  private transient Schema[] schemas;
  private transient SpecificDatumWriter<SpecificRecord>[] writers;
  private transient SpecificDatumReader<SpecificRecord>[] readers;
  /** Per class, a reader without Avro's resolving grammar (the bytes are always the class's own schema); null for nested records. */
  private transient DirectRecordReader<? extends SpecificRecord>[] directReaders;
  private transient ExposedBuffer buffer;
  /** Encoder of the generated classes (all records here but hand-built ones): one array, no stream calls. */
  private transient ArrayEncoder array;
  private transient BinaryEncoder encoder;
  private transient BinaryDecoder decoder;
  private transient byte[] readBuffer;

  public AvroRecordSerializer(Class<T> typeClass, List<Class<? extends SpecificRecord>> classes) {
    this.typeClass = typeClass;
    this.classes = List.copyOf(classes);
    if (this.classes.isEmpty() || this.classes.size() > 127) {
      throw new IllegalArgumentException("1 to 127 record classes expected, got " + classes.size());
    }
  }

  Class<T> typeClass() {
    return typeClass;
  }

  List<Class<? extends SpecificRecord>> classes() {
    return classes;
  }

  @SuppressWarnings("unchecked")
  private void init() {
    if (schemas != null) {
      return;
    }
    int n = classes.size();
    // generated classes encode/decode themselves (customEncode/customDecode): several times
    // faster than Avro's reflective datum writer/reader
    SpecificData data = new SpecificData();
    data.setCustomCoders(DirectRecordReader.customCoders());
    data.setFastReaderEnabled(false);
    schemas = new Schema[n];
    writers = new SpecificDatumWriter[n];
    readers = new SpecificDatumReader[n];
    directReaders = new DirectRecordReader[n];
    for (int i = 0; i < n; i++) {
      directReaders[i] = DirectRecordReader.forClass(classes.get(i));
      schemas[i] = SpecificData.get().getSchema(classes.get(i));
      writers[i] = new SpecificDatumWriter<>(schemas[i], data);
      readers[i] = new SpecificDatumReader<>(schemas[i], schemas[i], data);
    }
    buffer = new ExposedBuffer(512);
    array = new ArrayEncoder(512);
    readBuffer = new byte[512];
  }

  private int indexOf(SpecificRecord r) {
    Class<?> c = r.getClass();
    for (int i = 0; i < classes.size(); i++) {
      if (classes.get(i) == c) {
        return i;
      }
    }
    throw new IllegalArgumentException("record class " + c.getName() + " not in " + classes);
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<T> duplicate() {
    return new AvroRecordSerializer<>(typeClass, classes);
  }

  @Override
  @SuppressWarnings("unchecked")
  public T createInstance() {
    return (T) SpecificData.newInstance(classes.get(0), SpecificData.get().getSchema(classes.get(0)));
  }

  @Override
  @SuppressWarnings("unchecked")
  public T copy(T from) {
    if (from == null) {
      return null;
    }
    return (T) SpecificData.get().deepCopy(from.getSchema(), from);
  }

  @Override
  public T copy(T from, T reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(T record, DataOutputView target) throws IOException {
    init();
    int idx = indexOf(record);
    if (ArrayEncoder.canEncode(record)) {
      array.reset().write(record);
      target.writeByte(idx);
      target.writeInt(array.size());
      target.write(array.buffer(), 0, array.size());
      return;
    }
    buffer.reset();
    // buffered, not direct: the direct encoder hands every byte to the stream one call at a time,
    // which in checkpoints (every buffered record of every node) and shuffles was most of the cost
    encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
    writers[idx].write(record, encoder);
    encoder.flush();
    target.writeByte(idx);
    target.writeInt(buffer.size());
    target.write(bufferBytes(), 0, buffer.size());
  }

  private byte[] bufferBytes() {
    return buffer.bytes();
  }

  @Override
  @SuppressWarnings("unchecked")
  public T deserialize(DataInputView source) throws IOException {
    init();
    int idx = source.readByte();
    int len = source.readInt();
    if (readBuffer.length < len) {
      readBuffer = new byte[Math.max(len, readBuffer.length * 2)];
    }
    source.readFully(readBuffer, 0, len);
    DirectRecordReader<? extends SpecificRecord> direct = directReaders[idx];
    if (direct != null) {
      return (T) direct.read(readBuffer, 0, len);
    }
    decoder = DecoderFactory.get().binaryDecoder(readBuffer, 0, len, decoder);
    return (T) readers[idx].read(null, decoder);
  }

  @Override
  public T deserialize(T reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    target.writeByte(source.readByte());
    int len = source.readInt();
    target.writeInt(len);
    target.write(source, len);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AvroRecordSerializer<?> other && other.typeClass == typeClass && other.classes.equals(classes);
  }

  @Override
  public int hashCode() {
    return typeClass.hashCode() * 31 + classes.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<T> snapshotConfiguration() {
    return new AvroRecordSerializerSnapshot<>(this);
  }

  @Override
  public String toString() {
    return "AvroRecordSerializer" + Arrays.toString(classes.stream().map(Class::getSimpleName).toArray());
  }

  /** A byte buffer whose array can be written out without a copy. */
  private static final class ExposedBuffer extends ByteArrayOutputStream {
    ExposedBuffer(int size) {
      super(size);
    }
    byte[] bytes() {
      return buf;
    }
  }
}
