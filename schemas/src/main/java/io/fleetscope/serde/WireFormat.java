package io.fleetscope.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Confluent wire format: magic byte 0, the schema id as a 4-byte big-endian integer, then the Avro
 * binary encoding of the record.
 */
public final class WireFormat {
  public static final byte MAGIC = 0;
  public static final int HEADER_SIZE = 5;

  private WireFormat() {}

  /** Writes the 5-byte header for {@code schemaId} at the start of {@code out}. */
  public static void writeHeader(ByteBuffer out, int schemaId) {
    out.put(MAGIC).putInt(schemaId);
  }

  /** The 5-byte header for {@code schemaId}. */
  public static byte[] header(int schemaId) {
    return new byte[] {MAGIC, (byte) (schemaId >>> 24), (byte) (schemaId >>> 16), (byte) (schemaId >>> 8), (byte) schemaId};
  }

  /**
   * The schema id of a framed payload.
   *
   * @throws SerializationException when the payload is too short or the magic byte is wrong
   */
  public static int schemaId(byte[] data) {
    if (data == null || data.length < HEADER_SIZE) {
      throw new SerializationException("not Confluent wire format: " + (data == null ? "null payload" : data.length + " bytes, need at least 5"));
    }
    if (data[0] != MAGIC) {
      throw new SerializationException("not Confluent wire format: magic byte is " + data[0] + ", expected 0");
    }
    return ((data[1] & 0xff) << 24) | ((data[2] & 0xff) << 16) | ((data[3] & 0xff) << 8) | (data[4] & 0xff);
  }
}
