package io.fleetscope.flink.io;

import java.io.DataInput;
import java.io.IOException;
import org.apache.flink.types.StringValue;

/**
 * Reads strings in the format of Flink's {@link StringValue#writeString} (a 7-bit variable-length
 * length + 1, 0 for null, then each char in 7-bit groups) and hands out one String instance per
 * distinct short value: the node, rack, cluster and model names of a shuffle repeat in every
 * record, so they are neither allocated again nor re-hashed downstream. Not thread safe: one per
 * serializer instance ({@code duplicate()}).
 */
public final class StringValueReader {
  private static final int SLOTS = 4096; // power of two
  private static final int MAX_CACHED = 64;

  private final String[] cache = new String[SLOTS];
  private char[] scratch = new char[MAX_CACHED];

  public String read(DataInput in) throws IOException {
    int len = in.readUnsignedByte();
    if (len == 0) {
      return null;
    }
    if (len >= 0x80) {
      int shift = 7;
      len &= 0x7f;
      int curr;
      while ((curr = in.readUnsignedByte()) >= 0x80) {
        len |= (curr & 0x7f) << shift;
        shift += 7;
      }
      len |= curr << shift;
    }
    len -= 1;
    if (scratch.length < len) {
      scratch = new char[Math.max(len, scratch.length * 2)];
    }
    char[] c = scratch;
    int h = 0;
    for (int i = 0; i < len; i++) {
      int ch = in.readUnsignedByte();
      if (ch >= 0x80) {
        int shift = 7;
        ch &= 0x7f;
        int curr;
        while ((curr = in.readUnsignedByte()) >= 0x80) {
          ch |= (curr & 0x7f) << shift;
          shift += 7;
        }
        ch |= curr << shift;
      }
      c[i] = (char) ch;
      h = 31 * h + (char) ch;
    }
    if (len > MAX_CACHED) {
      return new String(c, 0, len);
    }
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    String s = cache[slot];
    if (s != null && s.length() == len && equals(s, c, len)) {
      return s;
    }
    s = new String(c, 0, len);
    cache[slot] = s;
    return s;
  }

  private static boolean equals(String s, char[] c, int len) {
    for (int i = 0; i < len; i++) {
      if (s.charAt(i) != c[i]) {
        return false;
      }
    }
    return true;
  }
}
