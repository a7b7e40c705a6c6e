package io.fleetscope.serde;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Records of the generated classes with every field set to a random value of its schema (seeded). */
final class RandomRecords {
  private final Random random;

  RandomRecords(long seed) {
    this.random = new Random(seed);
  }

  /** A record of {@code type} with every field set (nullable ones null when {@code nulls}). */
  SpecificRecord filled(Class<? extends SpecificRecord> type, boolean nulls) {
    Schema schema = SpecificData.get().getSchema(type);
    SpecificRecord r = (SpecificRecord) SpecificData.newInstance(type, schema);
    for (Schema.Field f : schema.getFields()) {
      r.put(f.pos(), value(f.schema(), nulls));
    }
    return r;
  }

  Object value(Schema s, boolean nulls) {
    switch (s.getType()) {
      case UNION:
        List<Schema> types = s.getTypes();
        Schema pick = types.get(random.nextInt(types.size()));
        if (pick.getType() == Schema.Type.NULL && !nulls) {
          pick = types.stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(pick);
        }
        return value(pick, nulls);
      case NULL:
        return null;
      case BOOLEAN:
        return random.nextBoolean();
      case INT:
        return random.nextInt();
      case LONG:
        return random.nextLong();
      case FLOAT:
        return random.nextFloat();
      case DOUBLE:
        return random.nextDouble() * 1000;
      case STRING:
        return List.of("node-a", "c1", "H200", "GPU-0f3c", "mlx5_3", "ümlaut", "").get(random.nextInt(7)) + random.nextInt(3);
      case BYTES:
        return ByteBuffer.wrap(new byte[] {1, 2, (byte) random.nextInt()});
      case ENUM:
        return SpecificData.get().createEnum(s.getEnumSymbols().get(random.nextInt(s.getEnumSymbols().size())), s);
      case ARRAY: {
        List<Object> l = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          l.add(value(s.getElementType(), nulls));
        }
        return l;
      }
      case MAP: {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          m.put("k" + i, value(s.getValueType(), nulls));
        }
        return m;
      }
      case RECORD: {
        SpecificRecord r = (SpecificRecord) SpecificData.newInstance(SpecificData.get().getClass(s), s);
        for (Schema.Field f : s.getFields()) {
          r.put(f.pos(), value(f.schema(), nulls));
        }
        return r;
      }
      default:
        throw new IllegalArgumentException("no test value for " + s);
    }
  }
}
