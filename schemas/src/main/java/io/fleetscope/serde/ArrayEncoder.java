package io.fleetscope.serde;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.Encoder;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.avro.util.Utf8;

/**
 * Avro binary encoder into a growable byte array, for the generated classes' {@code customEncode}:
 * the same bytes as Avro's {@code BinaryEncoder}, without its buffer flushes and stream calls, and
 * ASCII strings (node, cluster, model, device names) written without an intermediate byte array.
 * Records whose class was not generated with custom coders are refused ({@link #canEncode}); callers
 * keep Avro's datum writer for those. Not thread safe; reuse one per thread.
 */
public final class ArrayEncoder extends Encoder {
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buf;
  private int pos;

  public ArrayEncoder() {
    this(256);
  }

  public ArrayEncoder(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  /** Whether {@code r} encodes itself (a generated class with custom coders). */
  public static boolean canEncode(IndexedRecord r) {
    return r instanceof SpecificRecordBase && CUSTOM.get(r.getClass());
  }

  /**
   * Whether a class declares its own {@code customEncode} (generated with custom coders), and
   * {@code fleetscope.avro.custom-coders} is not false when the class is first seen.
   */
  private static final ClassValue<Boolean> CUSTOM = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      if (!DirectRecordReader.customCoders()) {
        return false;
      }
      try {
        return type.getMethod("customEncode", Encoder.class).getDeclaringClass() != SpecificRecordBase.class;
      } catch (NoSuchMethodException e) {
        return false;
      }
    }
  };

  /** Forgets what was written; the next write starts at offset 0. */
  public ArrayEncoder reset() {
    pos = 0;
    return this;
  }

  /** Appends {@code r}'s Avro binary (its own schema); see {@link #canEncode}. */
  public ArrayEncoder write(IndexedRecord r) throws IOException {
    if (!canEncode(r)) {
      throw new IllegalArgumentException(r.getClass().getName() + " has no generated custom coders");
    }
    ((SpecificRecordBase) r).customEncode(this);
    return this;
  }

  /** The array written so far (valid up to {@link #size()}; replaced when it grows). */
  public byte[] buffer() {
    return buf;
  }

  public int size() {
    return pos;
  }

  /** A copy of what was written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }

  /** Appends raw bytes (a wire-format header, say). */
  public ArrayEncoder writeRaw(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
    return this;
  }

  private void ensure(int n) {
    if (buf.length - pos < n) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }
  }

  @Override
  public void writeNull() {
  }

  @Override
  public void writeBoolean(boolean b) {
    ensure(1);
    buf[pos++] = (byte) (b ? 1 : 0);
  }

  @Override
  public void writeInt(int n) {
    ensure(5);
    int v = (n << 1) ^ (n >> 31);
    while ((v & ~0x7F) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  @Override
  public void writeLong(long n) {
    ensure(10);
    long v = (n << 1) ^ (n >> 63);
    while ((v & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  @Override
  public void writeFloat(float f) {
    ensure(4);
    INT_LE.set(buf, pos, Float.floatToRawIntBits(f));
    pos += 4;
  }

  @Override
  public void writeDouble(double d) {
    ensure(8);
    LONG_LE.set(buf, pos, Double.doubleToRawLongBits(d));
    pos += 8;
  }

  @Override
  public void writeString(Utf8 utf8) {
    writeBytes(utf8.getBytes(), 0, utf8.getByteLength());
  }

  @Override
  public void writeString(String s) {
    // the JDK encodes an ASCII string to UTF-8 with one vectorised copy; a loop over charAt to find
    // out whether it is ASCII first was the largest single cost of encoding a sample (profiled at
    // 20,000 GPUs: a fifth of the analytics' own frames)
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    writeBytes(b, 0, b.length);
  }

  @Override
  public void writeString(CharSequence cs) {
    if (cs instanceof Utf8 u) {
      writeString(u);
    } else {
      writeString(cs.toString());
    }
  }

  @Override
  public void writeBytes(ByteBuffer bytes) {
    ByteBuffer b = bytes.duplicate();
    int len = b.remaining();
    writeInt(len);
    ensure(len);
    b.get(buf, pos, len);
    pos += len;
  }

  @Override
  public void writeBytes(byte[] bytes, int start, int len) {
    writeInt(len);
    writeRaw(bytes, start, len);
  }

  @Override
  public void writeFixed(byte[] bytes, int start, int len) {
    writeRaw(bytes, start, len);
  }

  @Override
  public void writeEnum(int e) {
    writeInt(e);
  }

  @Override
  public void writeArrayStart() {
  }

  @Override
  public void setItemCount(long itemCount) {
    if (itemCount > 0) {
      writeLong(itemCount);
    }
  }

  @Override
  public void startItem() {
  }

  @Override
  public void writeArrayEnd() {
    writeInt(0);
  }

  @Override
  public void writeMapStart() {
  }

  @Override
  public void writeMapEnd() {
    writeInt(0);
  }

  @Override
  public void writeIndex(int unionIndex) {
    writeInt(unionIndex);
  }

  @Override
  public void flush() {
  }
}
