package org.apache.avro.io;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.AvroTypeException;
import org.apache.avro.InvalidNumberEncodingException;
import org.apache.avro.Schema;
import org.apache.avro.util.Utf8;

/**
 * A {@link ResolvingDecoder} for data written with exactly the reader's schema, for the generated
 * classes' {@code customDecode}: every read goes straight to the byte array instead of through the
 * resolving grammar (a parser step per field) and {@link BinaryDecoder}'s refillable buffer (a
 * bounds check and a possible compaction per value). Only the record's field-order action uses the
 * grammar, so this is for flat records (no nested record fields, whose own {@code customDecode}
 * would ask the grammar again); {@code io.fleetscope.serde.DirectRecordReader} checks that.
 * Repeated short strings (node, cluster, model, UUIDs) are decoded once and served from a small
 * cache, so they are not decoded and allocated for every record and keep their cached hash codes.
 *
 * <p>Every read checks the array's bounds and the value's encoding: a truncated record is an
 * {@link EOFException}, a varint longer than its type allows an {@link InvalidNumberEncodingException},
 * a negative length or a union branch the schema does not have an {@link AvroTypeException}.
 *
 * <p>It lives in Avro's package because ResolvingDecoder's constructor is package private. Not
 * thread safe; {@link #reset} before each record.
 */
public final class SameSchemaDecoder extends ResolvingDecoder {
  private static final int CACHE_SIZE = 8192; // power of two
  private static final int CACHE_MAX_BYTES = 64;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final Decoder NO_INPUT = DecoderFactory.get().binaryDecoder(new byte[0], null);

  private final String[] cachedStrings = new String[CACHE_SIZE];
  private final byte[][] cachedBytes = new byte[CACHE_SIZE][];
  private final int unionBranches;
  private byte[] buf = new byte[0];
  private int pos;
  private int limit;

  /**
   * @param unionBranches the most branches of any union in {@code schema}: a branch index outside
   *     that is corrupt data (the generated code would read any index but 1 as null)
   */
  public SameSchemaDecoder(Schema schema, int unionBranches) throws IOException {
    super(schema, schema, NO_INPUT);
    this.unionBranches = unionBranches;
  }

  /** Resets the grammar to the record's start and reads {@code len} bytes of {@code data} from {@code off}. */
  public SameSchemaDecoder reset(byte[] data, int off, int len) throws IOException {
    if (off < 0 || len < 0 || off + len > data.length) {
      throw new IndexOutOfBoundsException("offset " + off + " length " + len + " of " + data.length + " bytes");
    }
    super.configure(NO_INPUT);
    buf = data;
    pos = off;
    limit = off + len;
    return this;
  }

  /** Whether every byte given to {@link #reset} was read. */
  public boolean isEnd() {
    return pos == limit;
  }

  private void need(int n) throws EOFException {
    if (limit - pos < n) {
      throw new EOFException("record ends " + (n - (limit - pos)) + " byte(s) early");
    }
  }

  @Override
  public void readNull() {
  }

  @Override
  public boolean readBoolean() throws IOException {
    need(1);
    byte b = buf[pos++];
    if (b != 0 && b != 1) {
      throw new AvroTypeException("boolean byte " + b + " is neither 0 nor 1");
    }
    return b == 1;
  }

  @Override
  public int readInt() throws IOException {
    int p = pos;
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (p == limit) {
        throw new EOFException("record ends inside an int");
      }
      int b = buf[p++] & 0xff;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        pos = p;
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw new InvalidNumberEncodingException("int encoding longer than 5 bytes");
  }

  @Override
  public long readLong() throws IOException {
    int p = pos;
    if (limit - p >= 10) { // common case: no end-of-record check per byte
      byte[] b = buf;
      long v = b[p++];
      if (v >= 0) {
        pos = p;
        return (v >>> 1) ^ -(v & 1);
      }
      v &= 0x7f;
      for (int shift = 7; shift < 70; shift += 7) {
        long x = b[p++];
        v |= (x & 0x7f) << shift;
        if (x >= 0) {
          pos = p;
          return (v >>> 1) ^ -(v & 1);
        }
      }
      throw new InvalidNumberEncodingException("long encoding longer than 10 bytes");
    }
    long value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p == limit) {
        throw new EOFException("record ends inside a long");
      }
      long b = buf[p++] & 0xff;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        pos = p;
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw new InvalidNumberEncodingException("long encoding longer than 10 bytes");
  }

  @Override
  public float readFloat() throws IOException {
    need(4);
    float f = Float.intBitsToFloat((int) INT_LE.get(buf, pos));
    pos += 4;
    return f;
  }

  @Override
  public double readDouble() throws IOException {
    need(8);
    double d = Double.longBitsToDouble((long) LONG_LE.get(buf, pos));
    pos += 8;
    return d;
  }

  /** A length prefix (strings, bytes): not negative and not past the record's end. */
  private int readLength() throws IOException {
    long len = readLong();
    if (len < 0) {
      throw new AvroTypeException("negative length " + len);
    }
    if (len > limit - pos) {
      throw new EOFException("length " + len + " runs past the record's end (" + (limit - pos) + " bytes left)");
    }
    return (int) len;
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    int len = readLength();
    Utf8 u = old != null ? old : new Utf8();
    u.setByteLength(len);
    System.arraycopy(buf, pos, u.getBytes(), 0, len);
    pos += len;
    return u;
  }

  @Override
  public String readString() throws IOException {
    int len = readLength();
    int start = pos;
    pos += len;
    if (len > CACHE_MAX_BYTES) {
      return new String(buf, start, len, StandardCharsets.UTF_8);
    }
    int h = 1;
    for (int i = start; i < start + len; i++) {
      h = 31 * h + buf[i];
    }
    int slot = (h ^ (h >>> 16)) & (CACHE_SIZE - 1);
    byte[] c = cachedBytes[slot];
    if (c != null && c.length == len && Arrays.equals(c, 0, len, buf, start, start + len)) {
      return cachedStrings[slot];
    }
    String s = new String(buf, start, len, StandardCharsets.UTF_8);
    cachedBytes[slot] = Arrays.copyOfRange(buf, start, start + len);
    cachedStrings[slot] = s;
    return s;
  }

  @Override
  public void skipString() throws IOException {
    pos += readLength();
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    int len = readLength();
    ByteBuffer b;
    if (old != null && old.capacity() >= len) {
      b = old;
      b.clear();
    } else {
      b = ByteBuffer.allocate(len);
    }
    b.put(buf, pos, len);
    b.flip();
    pos += len;
    return b;
  }

  @Override
  public void skipBytes() throws IOException {
    pos += readLength();
  }

  @Override
  public void readFixed(byte[] bytes, int start, int length) throws IOException {
    need(length);
    System.arraycopy(buf, pos, bytes, start, length);
    pos += length;
  }

  @Override
  public void skipFixed(int length) throws IOException {
    need(length);
    pos += length;
  }

  @Override
  public int readEnum() throws IOException {
    return readInt();
  }

  /** A block count; a negative count is followed by the block's size in bytes, which is not needed here. */
  private long blockCount() throws IOException {
    long n = readLong();
    if (n < 0) {
      readLong();
      n = -n;
    }
    // every item takes at least one byte: a larger count is corrupt data, refused before anything is allocated
    if (n < 0 || n > limit - pos) {
      throw new EOFException("block of " + n + " items runs past the record's end (" + (limit - pos) + " bytes left)");
    }
    return n;
  }

  @Override
  public long readArrayStart() throws IOException {
    return blockCount();
  }

  @Override
  public long arrayNext() throws IOException {
    return blockCount();
  }

  @Override
  public long skipArray() throws IOException {
    return skipBlocks();
  }

  @Override
  public long readMapStart() throws IOException {
    return blockCount();
  }

  @Override
  public long mapNext() throws IOException {
    return blockCount();
  }

  @Override
  public long skipMap() throws IOException {
    return skipBlocks();
  }

  /**
   * Skips blocks that carry their byte size (negative counts) and returns the count of the first
   * block that does not, which the caller then reads item by item (Avro's skip contract).
   */
  private long skipBlocks() throws IOException {
    while (true) {
      long n = readLong();
      if (n >= 0) {
        return n;
      }
      long size = readLong();
      if (size < 0 || size > limit - pos) {
        throw new EOFException("block of " + size + " bytes runs past the record's end");
      }
      pos += (int) size;
    }
  }

  @Override
  public int readIndex() throws IOException {
    int i = readInt();
    if (i < 0 || i >= unionBranches) {
      throw new AvroTypeException("union branch " + i + " out of range (at most " + unionBranches + " branches)");
    }
    return i;
  }
}
