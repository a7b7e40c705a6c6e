package io.fleetscope.agent.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A size in bytes written in the YAML as {@code 65536}, {@code 64KiB} or {@code 256MiB}. */
public record ByteSize(long bytes) {
  @JsonCreator
  public static ByteSize parse(Object value) {
    if (value instanceof Number n) return new ByteSize(n.longValue());
    return new ByteSize(Units.bytes(String.valueOf(value)));
  }

  public static ByteSize ofMiB(long mib) {
    return new ByteSize(mib << 20);
  }

  public static ByteSize ofKiB(long kib) {
    return new ByteSize(kib << 10);
  }

  @JsonValue
  @Override
  public String toString() {
    if (bytes % (1 << 20) == 0) return (bytes >> 20) + "MiB";
    if (bytes % (1 << 10) == 0) return (bytes >> 10) + "KiB";
    return Long.toString(bytes);
  }
}
