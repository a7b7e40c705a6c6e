package io.fleetscope.flink.io;

import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for Avro SpecificRecords, serialized as Avro binary by
 * {@link AvroRecordSerializer}. {@link #forClass(Class)} for one record class;
 * {@link #anyRecord()} for a stream that mixes the records of every topic.
 */
public final class AvroTypeInfo<T extends SpecificRecord> extends SingleValueTypeInfo<T> {
  private static final long serialVersionUID = 1L;

  private final List<Class<? extends SpecificRecord>> classes;

  private AvroTypeInfo(Class<T> typeClass, List<Class<? extends SpecificRecord>> classes) {
    super(typeClass);
    this.classes = List.copyOf(classes);
  }

  public static <T extends SpecificRecord> AvroTypeInfo<T> forClass(Class<T> c) {
    return new AvroTypeInfo<>(c, List.of(c));
  }

  /** Any record class of {@link Topics#all()}. */
  public static AvroTypeInfo<SpecificRecord> anyRecord() {
    List<Class<? extends SpecificRecord>> cs = new ArrayList<>();
    for (Topics.TopicSpec t : Topics.all().values()) {
      if (!cs.contains(t.valueClass())) {
        cs.add(t.valueClass());
      }
    }
    return new AvroTypeInfo<>(SpecificRecord.class, cs);
  }

  /** Any of the given classes. */
  @SafeVarargs
  public static AvroTypeInfo<SpecificRecord> anyOf(Class<? extends SpecificRecord>... cs) {
    return new AvroTypeInfo<>(SpecificRecord.class, List.of(cs));
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return new AvroRecordSerializer<>(getTypeClass(), classes);
  }

  @Override
  public String toString() {
    return "AvroTypeInfo" + classes.stream().map(Class::getSimpleName).toList();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AvroTypeInfo<?> a && a.getTypeClass() == getTypeClass() && a.classes.equals(classes);
  }

  @Override
  public int hashCode() {
    return getTypeClass().hashCode() * 31 + classes.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof AvroTypeInfo;
  }
}
