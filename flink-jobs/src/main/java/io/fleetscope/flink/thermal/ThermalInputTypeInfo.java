package io.fleetscope.flink.thermal;

import io.fleetscope.flink.io.SingleValueTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information of {@link ThermalInput} with {@link ThermalInputSerializer}; the class names it
 * in its {@code @TypeInfo}, so {@code TypeInformation.of(ThermalInput.class)} returns this.
 */
public final class ThermalInputTypeInfo extends SingleValueTypeInfo<ThermalInput> {
  private static final long serialVersionUID = 1L;

  public ThermalInputTypeInfo() {
    super(ThermalInput.class);
  }

  @Override
  public TypeSerializer<ThermalInput> createSerializer(SerializerConfig config) {
    return new ThermalInputSerializer();
  }

  @Override
  public String toString() {
    return "ThermalInput";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ThermalInputTypeInfo;
  }

  @Override
  public int hashCode() {
    return ThermalInputTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof ThermalInputTypeInfo;
  }

  /** Named by {@link ThermalInput}'s {@code @TypeInfo}. */
  public static final class Factory extends TypeInfoFactory<ThermalInput> {
    @Override
    public TypeInformation<ThermalInput> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new ThermalInputTypeInfo();
    }
  }
}
