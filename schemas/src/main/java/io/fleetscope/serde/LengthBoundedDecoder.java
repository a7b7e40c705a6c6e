package io.fleetscope.serde;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * A {@link Decoder} over another that refuses every length and item count larger than the payload
 * it reads, before anything is allocated for it. Avro's own decoder trusts them up to 2^31: a
 * corrupt or hostile record declaring an array of 2 billion items made the generated classes
 * allocate that array and the consumer's JVM die of an OutOfMemoryError. Every item of the
 * project's schemas takes at least one byte, so no valid record declares more items than it has
 * bytes. A refused length is an {@link EOFException} (truncated or corrupt data).
 */
final class LengthBoundedDecoder extends Decoder {
  private final Decoder in;
  private final long maxLength;

  LengthBoundedDecoder(Decoder in, long payloadBytes) {
    this.in = in;
    this.maxLength = payloadBytes;
  }

  private long count(long n) throws IOException {
    if (n < 0 || n > maxLength) {
      throw new EOFException("block of " + n + " items in a record of " + maxLength + " bytes (corrupt or truncated data)");
    }
    return n;
  }

  private int length() throws IOException {
    long n = in.readLong();
    if (n < 0) {
      throw new AvroRuntimeException("Malformed data: negative length " + n);
    }
    if (n > maxLength) {
      throw new EOFException("length " + n + " in a record of " + maxLength + " bytes (corrupt or truncated data)");
    }
    return (int) n;
  }

  @Override
  public void readNull() throws IOException {
    in.readNull();
  }

  @Override
  public boolean readBoolean() throws IOException {
    return in.readBoolean();
  }

  @Override
  public int readInt() throws IOException {
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    return in.readLong();
  }

  @Override
  public float readFloat() throws IOException {
    return in.readFloat();
  }

  @Override
  public double readDouble() throws IOException {
    return in.readDouble();
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    int len = length();
    Utf8 u = old != null ? old : new Utf8();
    u.setByteLength(len);
    in.readFixed(u.getBytes(), 0, len);
    return u;
  }

  @Override
  public String readString() throws IOException {
    return readString(null).toString();
  }

  @Override
  public void skipString() throws IOException {
    in.skipFixed(length());
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    int len = length();
    ByteBuffer b = old != null && old.capacity() >= len ? old.clear() : ByteBuffer.allocate(len);
    in.readFixed(b.array(), b.arrayOffset(), len);
    b.limit(len);
    return b;
  }

  @Override
  public void skipBytes() throws IOException {
    in.skipFixed(length());
  }

  @Override
  public void readFixed(byte[] bytes, int start, int length) throws IOException {
    in.readFixed(bytes, start, length);
  }

  @Override
  public void skipFixed(int length) throws IOException {
    in.skipFixed(length);
  }

  @Override
  public int readEnum() throws IOException {
    return in.readEnum();
  }

  @Override
  public long readArrayStart() throws IOException {
    return count(in.readArrayStart());
  }

  @Override
  public long arrayNext() throws IOException {
    return count(in.arrayNext());
  }

  @Override
  public long skipArray() throws IOException {
    return count(in.skipArray());
  }

  @Override
  public long readMapStart() throws IOException {
    return count(in.readMapStart());
  }

  @Override
  public long mapNext() throws IOException {
    return count(in.mapNext());
  }

  @Override
  public long skipMap() throws IOException {
    return count(in.skipMap());
  }

  @Override
  public int readIndex() throws IOException {
    return in.readIndex();
  }
}
