package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class DirectRecordReaderTest {
  private final Random random = new Random(42);
  private final RandomRecords records = new RandomRecords(42);

  @Test
  void decodesEveryFlatRecordClassLikeAvrosReader() throws IOException {
    int flat = 0;
    for (Topics.TopicSpec spec : Topics.all().values()) {
      Class<? extends SpecificRecord> type = spec.valueClass();
      DirectRecordReader<? extends SpecificRecord> direct = DirectRecordReader.forClass(type);
      if (direct == null) {
        continue;
      }
      flat++;
      for (int i = 0; i < 200; i++) {
        SpecificRecord r = records.filled(type, i % 3 == 0);
        byte[] bytes = encode(r);
        SpecificRecord viaAvro = new SpecificDatumReader<SpecificRecord>(r.getSchema())
            .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        SpecificRecord viaDirect = direct.read(bytes, 0, bytes.length);
        assertThat(viaDirect).as(type.getSimpleName() + " record " + i).isEqualTo(viaAvro).isEqualTo(r);
      }
    }
    assertThat(flat).as("flat record classes").isGreaterThanOrEqualTo(10);
  }

  @Test
  void classesWithNestedRecordsAreLeftToAvro() {
    assertThat(DirectRecordReader.forClass(InventoryRecord.class)).isNull();
    assertThat(DirectRecordReader.forClass(Alert.class)).isNull();
    assertThat(DirectRecordReader.forClass(GpuSample.class)).isNotNull();
    assertThat(DirectRecordReader.forClass(IbPortSample.class)).isNotNull();
  }

  @Test
  void stringsFromTheCacheAreTheRecordsOwn() throws IOException {
    DirectRecordReader<GpuSample> direct = DirectRecordReader.forClass(GpuSample.class);
    // many distinct nodes, so cache slots are shared and replaced; every value must still match
    for (int round = 0; round < 3; round++) {
      for (int n = 0; n < 20_000; n++) {
        GpuSample s = AvroSerdeTest.sample();
        s.setNode("node-" + n);
        s.setUuid(n % 2 == 0 ? null : "GPU-" + Integer.toHexString(n * 7919));
        byte[] bytes = encode(s);
        GpuSample back = direct.read(bytes, 0, bytes.length);
        assertThat(back.getNode()).isEqualTo(s.getNode());
        assertThat(back.getUuid()).isEqualTo(s.getUuid());
      }
    }
  }

  @Test
  void rejectsTrailingBytesAndBadUnionBranches() throws IOException {
    DirectRecordReader<GpuSample> direct = DirectRecordReader.forClass(GpuSample.class);
    byte[] ok = encode(AvroSerdeTest.sample());
    byte[] longer = java.util.Arrays.copyOf(ok, ok.length + 1);
    assertThatThrownBy(() -> direct.read(longer, 0, longer.length)).hasMessageContaining("trailing bytes");
    // GpuSample: ts, cluster, node, agent_seq, then the union "source"; branch 3 does not exist
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
    e.writeLong(1);
    e.writeString("c");
    e.writeString("n");
    e.writeLong(1);
    e.writeIndex(3);
    e.flush();
    byte[] bad = out.toByteArray();
    assertThatThrownBy(() -> direct.read(bad, 0, bad.length)).hasMessageContaining("union branch 3");
    assertThat(direct.read(ok, 0, ok.length)).isEqualTo(AvroSerdeTest.sample()); // still usable
  }

  @Test
  void everyTruncatedRecordIsAnErrorNeverAValueOrAnIndexError() throws IOException {
    DirectRecordReader<GpuSample> direct = DirectRecordReader.forClass(GpuSample.class);
    byte[] ok = encode(AvroSerdeTest.sample());
    for (int len = 0; len < ok.length; len++) {
      byte[] data = new byte[ok.length + 7];
      System.arraycopy(ok, 0, data, 3, ok.length); // inside a larger array: the decoder must stop at len
      int n = len;
      assertThatThrownBy(() -> direct.read(data, 3, n)).as("first %d of %d bytes", len, ok.length)
          .isInstanceOf(java.io.EOFException.class);
    }
    assertThat(direct.read(ok, 0, ok.length)).isEqualTo(AvroSerdeTest.sample());
  }

  @Test
  void overlongVarintsAndNegativeLengthsAreRejected() throws IOException {
    DirectRecordReader<GpuSample> direct = DirectRecordReader.forClass(GpuSample.class);
    byte[] overlong = new byte[16];
    java.util.Arrays.fill(overlong, (byte) 0x80); // ts: a varint that never ends within 10 bytes
    assertThatThrownBy(() -> direct.read(overlong, 0, overlong.length)).isInstanceOf(org.apache.avro.InvalidNumberEncodingException.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
    e.writeLong(1);
    e.writeLong(-5); // cluster: a string of length -5
    e.flush();
    byte[] negative = out.toByteArray();
    assertThatThrownBy(() -> direct.read(negative, 0, negative.length)).hasMessageContaining("negative length -5");
  }

  @Test
  void randomBytesNeverEscapeAsAnythingButADecodeError() {
    DirectRecordReader<IbPortSample> direct = DirectRecordReader.forClass(IbPortSample.class);
    for (int i = 0; i < 20_000; i++) {
      byte[] junk = new byte[random.nextInt(200)];
      random.nextBytes(junk);
      try {
        direct.read(junk, 0, junk.length);
      } catch (IOException | org.apache.avro.AvroRuntimeException expected) {
        // the decode errors the deserializers turn into dead letters
      }
    }
  }

  private static byte[] encode(SpecificRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<SpecificRecord>(r.getSchema()).write(r, e);
    e.flush();
    return out.toByteArray();
  }
}
