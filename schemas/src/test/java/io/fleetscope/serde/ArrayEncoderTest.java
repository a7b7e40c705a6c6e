package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class ArrayEncoderTest {
  private final RandomRecords records = new RandomRecords(7);

  @Test
  void writesTheSameBytesAsAvrosWriterForEveryTopicClass() throws IOException {
    ArrayEncoder enc = new ArrayEncoder(16); // small: the array must grow mid-record
    int classes = 0;
    for (Topics.TopicSpec spec : Topics.all().values()) {
      Class<? extends SpecificRecord> type = spec.valueClass();
      classes++;
      for (int i = 0; i < 300; i++) {
        SpecificRecord r = records.filled(type, i % 3 == 0);
        byte[] expected = avroBytes(r);
        byte[] actual = enc.reset().write(r).toByteArray();
        assertThat(actual).as(type.getSimpleName() + " record " + i).isEqualTo(expected);
        SpecificRecord back = new SpecificDatumReader<SpecificRecord>(r.getSchema())
            .read(null, DecoderFactory.get().binaryDecoder(actual, null));
        assertThat(back).isEqualTo(r);
      }
    }
    assertThat(classes).isGreaterThanOrEqualTo(14);
  }

  @Test
  void nonAsciiStringsAreUtf8AndRawBytesPrecedeTheRecord() throws IOException {
    GpuSample s = AvroSerdeTest.sample();
    s.setNode("nœud-é-\u6f22-\ud83d\ude80");
    ArrayEncoder enc = new ArrayEncoder();
    enc.writeRaw(WireFormat.header(258), 0, WireFormat.HEADER_SIZE).write(s);
    byte[] framed = enc.toByteArray();
    assertThat(WireFormat.schemaId(framed)).isEqualTo(258);
    byte[] body = java.util.Arrays.copyOfRange(framed, WireFormat.HEADER_SIZE, framed.length);
    assertThat(body).isEqualTo(avroBytes(s));
    assertThat(DirectRecordReader.forClass(GpuSample.class).read(framed, WireFormat.HEADER_SIZE, body.length).getNode())
        .isEqualTo(s.getNode());
  }

  @Test
  void genericRecordsAreRefusedSoCallersKeepAvrosWriter() {
    Schema schema = SchemaBuilder.record("R").fields().requiredLong("x").endRecord();
    GenericData.Record r = new GenericData.Record(schema);
    r.put("x", 1L);
    assertThat(ArrayEncoder.canEncode(r)).isFalse();
    assertThat(ArrayEncoder.canEncode(AvroSerdeTest.sample())).isTrue();
    assertThatThrownBy(() -> new ArrayEncoder().write(r)).isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] avroBytes(SpecificRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder e = EncoderFactory.get().directBinaryEncoder(out, null);
    SpecificData reflective = new SpecificData();
    reflective.setCustomCoders(false); // Avro's schema-driven writer, the reference
    new SpecificDatumWriter<SpecificRecord>(r.getSchema(), reflective).write(r, e);
    e.flush();
    return out.toByteArray();
  }
}
