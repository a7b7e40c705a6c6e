package io.fleetscope.sink.write;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer with big-endian writes, for COPY BINARY tuples. Not thread-safe. */
public final class CopyBuffer {
  private byte[] buf;
  private int size;

  public CopyBuffer(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  public byte[] array() {
    return buf;
  }

  public void reset() {
    size = 0;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }

  public void put(byte[] b) {
    put(b, 0, b.length);
  }

  public void put(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  public void putByte(int v) {
    ensure(1);
    buf[size++] = (byte) v;
  }

  public void putShort(int v) {
    ensure(2);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  public void putInt(int v) {
    ensure(4);
    setInt(size, v);
    size += 4;
  }

  void setInt(int at, int v) {
    buf[at] = (byte) (v >>> 24);
    buf[at + 1] = (byte) (v >>> 16);
    buf[at + 2] = (byte) (v >>> 8);
    buf[at + 3] = (byte) v;
  }

  public void putLong(long v) {
    putInt((int) (v >>> 32));
    putInt((int) v);
  }

  /** A COPY BINARY field: its length, then the string as UTF-8. */
  public void putTextField(CharSequence s) {
    int n = s.length();
    ensure(4 + n);
    int lenAt = size;
    size += 4;
    for (int i = 0; i < n; i++) {
      char ch = s.charAt(i);
      if (ch >= 0x80) {
        size = lenAt;
        byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
        putInt(b.length);
        put(b);
        return;
      }
      buf[size++] = (byte) ch;
    }
    setInt(lenAt, n);
  }
}
