package io.fleetscope.agent.publish;

import io.fleetscope.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/** Avro binary (schema-less) encoding of spooled records, decoded with the topic's value class. */
public final class RecordCodec {
  private RecordCodec() {}

  public static long fingerprint(Schema s) {
    return SchemaNormalization.parsingFingerprint64(s);
  }

  public static byte[] encode(SpecificRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<SpecificRecord>(r.getSchema()).write(r, enc);
    enc.flush();
    return out.toByteArray();
  }

  /** Decodes an entry; fails when it was written with a schema this agent version does not have. */
  public static SpecificRecord decode(SpoolEntry e) throws IOException {
    Class<? extends SpecificRecord> cls = Topics.require(e.topic()).valueClass();
    Schema schema = Topics.require(e.topic()).schema();
    if (fingerprint(schema) != e.schemaFingerprint()) {
      throw new IOException("spooled record seq=" + e.seq() + " for " + e.topic()
          + " was written with another schema version (fingerprint " + Long.toHexString(e.schemaFingerprint()) + ")");
    }
    BinaryDecoder dec = DecoderFactory.get().binaryDecoder(e.avro(), null);
    SpecificDatumReader<SpecificRecord> reader = new SpecificDatumReader<>(schema, schema);
    return cls.cast(reader.read(null, dec));
  }
}
