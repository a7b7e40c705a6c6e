package io.fleetscope.flink.io;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Type information for an analytic's keyed state object (a plain Serializable class), serialized
 * with Java serialization; it avoids Kryo's surprises with records and inner classes. With the heap
 * state backend it runs at every checkpoint, for every key: the snapshot serializes each value, and
 * while an asynchronous snapshot runs, the first access to a key copies its value
 * ({@link TypeSerializer#copy}). A state class that holds many records implements {@link DeepCopy}
 * (a copy without serialization) and its own {@code writeObject}/{@code readObject} for the records.
 */
public final class JavaSerializableTypeInfo<T extends Serializable> extends SingleValueTypeInfo<T> {
  private static final long serialVersionUID = 1L;
  public JavaSerializableTypeInfo(Class<T> type) {
    super(type);
  }

  @Override
  @SuppressWarnings("unchecked")
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return (TypeSerializer<T>) JavaSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "JavaSerializable(" + getTypeClass().getSimpleName() + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JavaSerializableTypeInfo<?> j && j.getTypeClass() == getTypeClass();
  }

  @Override
  public int hashCode() {
    return getTypeClass().hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof JavaSerializableTypeInfo;
  }

  /**
   * A state object that copies itself faster than a Java serialization round trip; the copy must
   * share nothing mutable with the original.
   */
  public interface DeepCopy<T extends Serializable> extends Serializable {
    T deepCopy();
  }

  /** A deep copy of any Serializable object by a Java serialization round trip. */
  @SuppressWarnings("unchecked")
  public static <T extends Serializable> T copyBySerialization(T from) {
    return (T) JavaSerializer.INSTANCE.copy(from);
  }

  /** Java serialization of any Serializable object, length-prefixed. */
  public static final class JavaSerializer extends TypeSerializerSingleton<Serializable> {
    private static final long serialVersionUID = 1L;
    static final JavaSerializer INSTANCE = new JavaSerializer();

    @Override
    public boolean isImmutableType() {
      return false;
    }

    @Override
    public Serializable createInstance() {
      return null;
    }

    @Override
    public Serializable copy(Serializable from) {
      if (from == null) {
        return null;
      }
      if (from instanceof DeepCopy<?> d) {
        return d.deepCopy();
      }
      try {
        return fromBytes(toBytes(from));
      } catch (IOException e) {
        throw new IllegalStateException("cannot copy " + from.getClass().getName(), e);
      }
    }

    @Override
    public Serializable copy(Serializable from, Serializable reuse) {
      return copy(from);
    }

    @Override
    public int getLength() {
      return -1;
    }

    @Override
    public void serialize(Serializable record, DataOutputView target) throws IOException {
      byte[] b = toBytes(record);
      target.writeInt(b.length);
      target.write(b);
    }

    @Override
    public Serializable deserialize(DataInputView source) throws IOException {
      byte[] b = new byte[source.readInt()];
      source.readFully(b);
      return fromBytes(b);
    }

    @Override
    public Serializable deserialize(Serializable reuse, DataInputView source) throws IOException {
      return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
      int len = source.readInt();
      target.writeInt(len);
      target.write(source, len);
    }

    @Override
    public TypeSerializerSnapshot<Serializable> snapshotConfiguration() {
      return new Snapshot();
    }

    private static byte[] toBytes(Serializable o) throws IOException {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
        out.writeObject(o);
      }
      return bos.toByteArray();
    }

    private static Serializable fromBytes(byte[] b) throws IOException {
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b)) {
        @Override
        protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws IOException, ClassNotFoundException {
          return Class.forName(desc.getName(), false, Thread.currentThread().getContextClassLoader());
        }
      }) {
        return (Serializable) in.readObject();
      } catch (ClassNotFoundException e) {
        throw new IOException("state class missing: " + e.getMessage(), e);
      }
    }

    /** Snapshot for restore. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Serializable> {
      public Snapshot() {
        super(() -> INSTANCE);
      }
    }
  }
}
