package io.fleetscope.flink.core;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.StreamCorruptedException;

/**
 * Variable-length integers (7 bits a byte, least significant first, as Avro and protobuf) and
 * zigzag signs, for the compact state written in checkpoints: small counts and deltas take one or
 * two bytes instead of eight.
 */
public final class VarInts {
  private VarInts() {}

  public static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  public static long unzigzag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  public static void writeVarLong(DataOutput out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  public static long readVarLong(DataInput in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.readByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new StreamCorruptedException("varint longer than 10 bytes");
  }
}
