package io.fleetscope.flink.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Snapshot of {@link AvroRecordSerializer}: the record classes by name. */
public final class AvroRecordSerializerSnapshot<T extends SpecificRecord> implements TypeSerializerSnapshot<T> {
  private Class<T> typeClass;
  private List<Class<? extends SpecificRecord>> classes;

  /** For Flink's reflective instantiation on restore. */
  public AvroRecordSerializerSnapshot() {}

  AvroRecordSerializerSnapshot(AvroRecordSerializer<T> s) {
    this.typeClass = s.typeClass();
    this.classes = s.classes();
  }

  @Override
  public int getCurrentVersion() {
    return 1;
  }

  @Override
  public void writeSnapshot(DataOutputView out) throws IOException {
    out.writeUTF(typeClass.getName());
    out.writeInt(classes.size());
    for (Class<?> c : classes) {
      out.writeUTF(c.getName());
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public void readSnapshot(int readVersion, DataInputView in, ClassLoader cl) throws IOException {
    try {
      typeClass = (Class<T>) Class.forName(in.readUTF(), false, cl);
      int n = in.readInt();
      classes = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        classes.add((Class<? extends SpecificRecord>) Class.forName(in.readUTF(), false, cl));
      }
    } catch (ClassNotFoundException e) {
      throw new IOException("record class of a stored serializer is missing: " + e.getMessage(), e);
    }
  }

  @Override
  public TypeSerializer<T> restoreSerializer() {
    return new AvroRecordSerializer<>(typeClass, classes);
  }

  @Override
  public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(TypeSerializerSnapshot<T> old) {
    if (old instanceof AvroRecordSerializerSnapshot<T> o && o.classes.equals(classes)) {
      return TypeSerializerSchemaCompatibility.compatibleAsIs();
    }
    return TypeSerializerSchemaCompatibility.incompatible();
  }
}
