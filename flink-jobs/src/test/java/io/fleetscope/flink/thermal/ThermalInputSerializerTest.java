package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ThermalInputSerializerTest {
  private static final ThermalInputSerializer SERIALIZER = new ThermalInputSerializer();

  /** Every serialized field of ThermalInput (public, not static, not transient). */
  static List<Field> fields() {
    List<Field> l = new ArrayList<>();
    for (Field f : ThermalInput.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
        l.add(f);
      }
    }
    return l;
  }

  /** A ThermalInput with every field set to a value of its own (field i gets a value derived from i). */
  static ThermalInput full() throws Exception {
    ThermalInput r = new ThermalInput();
    int i = 1;
    for (Field f : fields()) {
      Class<?> t = f.getType();
      if (t == int.class) {
        f.setInt(r, 1000 + i);
      } else if (t == long.class) {
        f.setLong(r, 1_767_225_600_000L + i);
      } else if (t == String.class) {
        f.set(r, f.getName() + "-\u00e9" + i);
      } else if (t == Double.class) {
        f.set(r, i + 0.25);
      } else if (t == Long.class) {
        f.set(r, (1L << 40) + i);
      } else {
        throw new AssertionError("field type not covered by this test: " + f);
      }
      i++;
    }
    return r;
  }

  static ThermalInput roundTrip(ThermalInput r) throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(64);
    SERIALIZER.serialize(r, out);
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    ThermalInput back = SERIALIZER.deserialize(in);
    assertThat(in.available()).as("bytes left after deserialize").isZero();
    return back;
  }

  static void assertSameFields(ThermalInput actual, ThermalInput expected) throws Exception {
    for (Field f : fields()) {
      assertThat(f.get(actual)).as(f.getName()).isEqualTo(f.get(expected));
    }
  }

  @Test
  void typeInformationOfTheClassUsesThisSerializer() {
    TypeInformation<ThermalInput> ti = TypeInformation.of(ThermalInput.class);
    assertThat(ti).isInstanceOf(ThermalInputTypeInfo.class);
    assertThat(ti.createSerializer(new SerializerConfigImpl())).isInstanceOf(ThermalInputSerializer.class)
        .isNotSameAs(ti.createSerializer(new SerializerConfigImpl())); // stateful: one per use
  }

  @Test
  void everyFieldSurvivesARoundTrip() throws Exception {
    ThermalInput r = full();
    assertSameFields(roundTrip(r), r);
  }

  @Test
  void eachNullableFieldCanBeNullAlone() throws Exception {
    for (Field f : fields()) {
      if (f.getType().isPrimitive()) {
        continue;
      }
      ThermalInput r = full();
      f.set(r, null);
      ThermalInput back = roundTrip(r);
      assertThat(f.get(back)).as(f.getName() + " stays null").isNull();
      assertSameFields(back, r);
    }
  }

  @Test
  void allNullableFieldsNull() throws Exception {
    ThermalInput r = new ThermalInput();
    r.kind = ThermalInput.COOLANT;
    r.ts = 5;
    assertSameFields(roundTrip(r), r);
  }

  @Test
  void copyIsANewObjectWithTheSameFields() throws Exception {
    ThermalInput r = full();
    ThermalInput c = SERIALIZER.copy(r);
    assertThat(c).isNotSameAs(r);
    assertSameFields(c, r);
  }

  @Test
  void copyBetweenViewsKeepsTheBytes() throws Exception {
    ThermalInput r = full();
    r.memTempC = null;
    DataOutputSerializer a = new DataOutputSerializer(64);
    SERIALIZER.serialize(r, a);
    DataOutputSerializer b = new DataOutputSerializer(64);
    SERIALIZER.copy(new DataInputDeserializer(a.getCopyOfBuffer()), b);
    assertThat(b.getCopyOfBuffer()).isEqualTo(a.getCopyOfBuffer());
  }
}
