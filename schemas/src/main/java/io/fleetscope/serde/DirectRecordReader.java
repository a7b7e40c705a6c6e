package io.fleetscope.serde;

import java.io.IOException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.avro.io.SameSchemaDecoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Decodes Avro binary written with exactly the generated class's own schema by calling the class's
 * {@code customDecode} on a {@link SameSchemaDecoder}, without Avro's resolving grammar. Only for
 * flat records (fields of primitives, enums, fixed, unions, arrays and maps of those); {@link
 * #forClass} returns null for any other class, and when system property {@code
 * fleetscope.avro.direct-reader} or {@code fleetscope.avro.custom-coders} is {@code false} (for
 * benchmark comparisons), so callers keep Avro's reader for those. Not thread safe.
 */
public final class DirectRecordReader<T extends SpecificRecord> {
  private final Class<T> type;
  private final Schema schema;
  private final SameSchemaDecoder decoder;
  /** The generated class's no-arg constructor as a lambda (reflection's newInstance was 2 % of the analytics' CPU). */
  private final Supplier<T> factory;

  private DirectRecordReader(Class<T> type, Schema schema, int unionBranches) throws IOException {
    this.type = type;
    this.schema = schema;
    this.decoder = new SameSchemaDecoder(schema, unionBranches);
    this.factory = constructor(type);
  }

  @SuppressWarnings("unchecked")
  private static <T> Supplier<T> constructor(Class<T> type) throws IOException {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      MethodHandle ctor = lookup.findConstructor(type, MethodType.methodType(void.class));
      return (Supplier<T>) LambdaMetafactory.metafactory(lookup, "get", MethodType.methodType(Supplier.class),
          MethodType.methodType(Object.class), ctor, MethodType.methodType(type)).getTarget().invokeExact();
    } catch (Throwable e) {
      throw new IOException("no public no-arg constructor usable in " + type.getName() + ": " + e, e);
    }
  }

  /**
   * Whether Avro readers and writers should use the generated classes' own coders (system property
   * {@code fleetscope.avro.custom-coders}, default true; false means Avro's reflective writer and
   * fast reader).
   */
  public static boolean customCoders() {
    return Boolean.parseBoolean(System.getProperty("fleetscope.avro.custom-coders", "true"));
  }

  /** A reader for {@code type}, or null where the class is not a flat generated record. */
  public static <T extends SpecificRecord> DirectRecordReader<T> forClass(Class<T> type) {
    if (!customCoders() || !Boolean.parseBoolean(System.getProperty("fleetscope.avro.direct-reader", "true"))
        || !SpecificRecordBase.class.isAssignableFrom(type)) {
      return null;
    }
    Schema schema = SpecificData.get().getSchema(type);
    if (schema.getType() != Schema.Type.RECORD) {
      return null;
    }
    int branches = 0;
    for (Schema.Field f : schema.getFields()) {
      int b = flatUnionBranches(f.schema());
      if (b < 0) {
        return null;
      }
      branches = Math.max(branches, b);
    }
    try {
      if (type.getMethod("customDecode", ResolvingDecoder.class).getDeclaringClass() != type) {
        return null; // generated without custom coders
      }
      return new DirectRecordReader<>(type, schema, branches);
    } catch (IOException | NoSuchMethodException | LinkageError e) {
      // LinkageError: Avro loaded by another class loader than this class (package-private access)
      return null;
    }
  }

  /** The most branches of a union in {@code s}, 0 for none, -1 where {@code s} holds a record. */
  private static int flatUnionBranches(Schema s) {
    switch (s.getType()) {
      case RECORD:
        return -1;
      case ARRAY:
        return flatUnionBranches(s.getElementType());
      case MAP:
        return flatUnionBranches(s.getValueType());
      case UNION: {
        int max = s.getTypes().size();
        for (Schema t : s.getTypes()) {
          int b = flatUnionBranches(t);
          if (b < 0) {
            return -1;
          }
          max = Math.max(max, b);
        }
        return max;
      }
      default:
        return 0;
    }
  }

  public Schema schema() {
    return schema;
  }

  /**
   * Reads one record from {@code len} bytes at {@code off}.
   *
   * @throws IOException on data that does not match the schema, including trailing bytes
   */
  public T read(byte[] data, int off, int len) throws IOException {
    T record = factory.get();
    ((SpecificRecordBase) record).customDecode(decoder.reset(data, off, len));
    if (!decoder.isEnd()) {
      throw new IOException("trailing bytes after the record (payload does not match its schema)");
    }
    return record;
  }
}
