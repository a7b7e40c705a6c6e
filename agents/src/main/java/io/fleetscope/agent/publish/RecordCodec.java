package io.fleetscope.agent.publish;

import io.fleetscope.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro binary (schema-less) encoding of spooled records, decoded with the topic's value class.
 * Fingerprints, writers and readers are computed once per schema (the generated classes' schemas
 * are singletons) instead of once per record; writers and readers are kept per thread.
 */
public final class RecordCodec {
  private static final Map<Schema, Long> FINGERPRINTS = Collections.synchronizedMap(new IdentityHashMap<>());
  private static final ThreadLocal<Map<Schema, SpecificDatumWriter<SpecificRecord>>> WRITERS =
      ThreadLocal.withInitial(IdentityHashMap::new);
  private static final ThreadLocal<Map<Schema, SpecificDatumReader<SpecificRecord>>> READERS =
      ThreadLocal.withInitial(IdentityHashMap::new);

  private RecordCodec() {}

  public static long fingerprint(Schema s) {
    Long f = FINGERPRINTS.get(s);
    if (f == null) {
      f = SchemaNormalization.parsingFingerprint64(s);
      FINGERPRINTS.put(s, f);
    }
    return f;
  }

  public static byte[] encode(SpecificRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    WRITERS.get().computeIfAbsent(r.getSchema(), SpecificDatumWriter::new).write(r, enc);
    enc.flush();
    return out.toByteArray();
  }

  /**
   * Why an entry cannot be sent as it is: its topic is unknown to this agent version, or it was
   * written with another schema version than the topic's current one; null when it can.
   */
  public static String schemaMismatch(SpoolEntry e) {
    Topics.TopicSpec t;
    try {
      t = Topics.require(e.topic());
    } catch (RuntimeException unknown) {
      return String.valueOf(unknown.getMessage());
    }
    if (fingerprint(t.schema()) != e.schemaFingerprint()) {
      return "spooled record seq=" + e.seq() + " for " + e.topic()
          + " was written with another schema version (fingerprint " + Long.toHexString(e.schemaFingerprint()) + ")";
    }
    return null;
  }

  /** Decodes an entry; fails when it was written with a schema this agent version does not have. */
  public static SpecificRecord decode(SpoolEntry e) throws IOException {
    String mismatch = schemaMismatch(e);
    if (mismatch != null) throw new IOException(mismatch);
    Class<? extends SpecificRecord> cls = Topics.require(e.topic()).valueClass();
    Schema schema = Topics.require(e.topic()).schema();
    BinaryDecoder dec = DecoderFactory.get().binaryDecoder(e.avro(), null);
    SpecificDatumReader<SpecificRecord> reader = READERS.get().computeIfAbsent(schema, x -> new SpecificDatumReader<>(x, x));
    return cls.cast(reader.read(null, dec));
  }
}
