package io.fleetscope.flink.io;

import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * The part of a {@link TypeInformation} that is the same for every opaque, single-value type of ours
 * (not basic, not a tuple, one field, not a key): subclasses add the serializer, equality and name.
 */
public abstract class SingleValueTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> typeClass;

  protected SingleValueTypeInfo(Class<T> typeClass) {
    this.typeClass = typeClass;
  }

  @Override
  public final boolean isBasicType() {
    return false;
  }

  @Override
  public final boolean isTupleType() {
    return false;
  }

  @Override
  public final int getArity() {
    return 1;
  }

  @Override
  public final int getTotalFields() {
    return 1;
  }

  @Override
  public final Class<T> getTypeClass() {
    return typeClass;
  }

  @Override
  public final boolean isKeyType() {
    return false;
  }
}
