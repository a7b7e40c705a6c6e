package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {
  private final InMemoryRegistry registry = new InMemoryRegistry();

  static GpuSample sample() {
    return GpuSample.newBuilder().setTs(1_764_680_000_000L).setCluster("c1").setNode("node-a")
        .setAgentSeq(7).setGpu(3).setTempC(61.5).setThrottleReasons(0x20L).setEccSbeTotal(12L)
        .setRowRemapPending(false).build();
  }

  @Test
  void roundTripsInConfluentWireFormat() {
    byte[] bytes = new AvroSerializer<GpuSample>(registry).serialize("fleet.gpu.v1", sample());
    assertThat(bytes[0]).isEqualTo((byte) 0);
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    assertThat(registry.getById(id)).isEqualTo(GpuSample.getClassSchema());
    GpuSample back = new AvroDeserializer<>(registry, GpuSample.class).deserialize("fleet.gpu.v1", bytes);
    assertThat(back).isEqualTo(sample());
  }

  @Test
  void registersOncePerTopicAndSchema() {
    AvroSerializer<GpuSample> s = new AvroSerializer<>(registry);
    for (int i = 0; i < 100; i++) {
      s.serialize("fleet.gpu.v1", sample());
    }
    assertThat(registry.registrations).isEqualTo(1);
  }

  /** GpuSample as agents wrote it before the energy counter: every field but the last. */
  private static Schema withoutEnergy() {
    Schema full = GpuSample.getClassSchema();
    java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
    for (Schema.Field f : full.getFields()) {
      if (!f.name().equals("energy_mj")) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
  }

  @Test
  void theEnergyCounterIsABackwardAndForwardCompatibleAddition() {
    Schema before = withoutEnergy();
    assertThat(org.apache.avro.SchemaCompatibility.checkReaderWriterCompatibility(GpuSample.getClassSchema(), before)
        .getType()).isEqualTo(org.apache.avro.SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
    assertThat(org.apache.avro.SchemaCompatibility.checkReaderWriterCompatibility(before, GpuSample.getClassSchema())
        .getType()).isEqualTo(org.apache.avro.SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);

    // an agent of before: the counter reads as null
    GenericRecord old = new GenericData.Record(before);
    for (Schema.Field f : before.getFields()) {
      old.put(f.name(), sample().get(f.name()));
    }
    byte[] oldBytes = new AvroSerializer<GenericRecord>(registry).serialize("fleet.gpu.v1", old);
    GpuSample read = new AvroDeserializer<>(registry, GpuSample.class).deserialize("fleet.gpu.v1", oldBytes);
    assertThat(read.getEnergyMj()).isNull();
    assertThat(read.getTempC()).isEqualTo(61.5);

    // a new agent's counter round-trips at full long precision (mJ since driver load exceeds 2^31 within hours)
    GpuSample withEnergy = GpuSample.newBuilder(sample()).setEnergyMj(123_456_789_012_345L).build();
    byte[] bytes = new AvroSerializer<GpuSample>(registry).serialize("fleet.gpu.v1", withEnergy);
    assertThat(new AvroDeserializer<>(registry, GpuSample.class).deserialize("fleet.gpu.v1", bytes).getEnergyMj())
        .isEqualTo(123_456_789_012_345L);
  }

  @Test
  void readsRecordsOfAnOlderWriterThatLacksOptionalFields() {
    // an older agent's schema: only the required fields
    Schema old = SchemaBuilder.record("GpuSample").namespace("io.fleetscope.avro").fields()
        .requiredLong("ts").requiredString("cluster").requiredString("node").requiredLong("agent_seq")
        .requiredInt("gpu").endRecord();
    GenericRecord r = new GenericData.Record(old);
    r.put("ts", 5L);
    r.put("cluster", "c");
    r.put("node", "n");
    r.put("agent_seq", 1L);
    r.put("gpu", 2);
    byte[] bytes = new AvroSerializer<GenericRecord>(registry).serialize("fleet.gpu.v1", r);
    GpuSample back = new AvroDeserializer<>(registry, GpuSample.class).deserialize("fleet.gpu.v1", bytes);
    assertThat(back.getGpu()).isEqualTo(2);
    assertThat(back.getTempC()).isNull();
  }

  @Test
  void readsRecordsOfANewerWriterWithAnExtraField() {
    Schema newer = new Schema.Parser().parse(GpuSample.getClassSchema().toString()
        .replace("\"fields\":[", "\"fields\":[{\"name\":\"fan_pct\",\"type\":[\"null\",\"double\"],\"default\":null},"));
    GenericRecord r = new GenericData.Record(newer);
    r.put("ts", 5L);
    r.put("cluster", "c");
    r.put("node", "n");
    r.put("agent_seq", 1L);
    r.put("gpu", 2);
    r.put("fan_pct", 40.0);
    byte[] bytes = new AvroSerializer<GenericRecord>(registry).serialize("fleet.gpu.v1", r);
    GpuSample back = new AvroDeserializer<>(registry, GpuSample.class).deserialize("fleet.gpu.v1", bytes);
    assertThat(back.getNode()).isEqualTo("n");
  }

  @Test
  void refusesBadFramingUnknownIdsAndTruncatedPayloads() {
    AvroDeserializer<GpuSample> d = new AvroDeserializer<>(registry, GpuSample.class);
    assertThatThrownBy(() -> d.deserialize("t", new byte[] {1, 0, 0, 0, 1, 2}))
        .isInstanceOf(SerializationException.class).hasMessageContaining("magic byte is 1");
    assertThatThrownBy(() -> d.deserialize("t", new byte[] {0, 0}))
        .isInstanceOf(SerializationException.class).hasMessageContaining("need at least 5");
    assertThatThrownBy(() -> d.deserialize("t", new byte[] {0, 0, 0, 0, 99, 2}))
        .isInstanceOf(SerializationException.class).hasMessageContaining("unknown schema id 99");
    byte[] good = new AvroSerializer<GpuSample>(registry).serialize("t", sample());
    assertThatThrownBy(() -> d.deserialize("t", Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("cannot decode");
    byte[] longer = Arrays.copyOf(good, good.length + 2);
    assertThatThrownBy(() -> d.deserialize("t", longer))
        .isInstanceOf(SerializationException.class).hasMessageContaining("trailing bytes");
  }

  @Test
  void nullIsATombstoneBothWays() {
    assertThat(new AvroSerializer<GpuSample>(registry).serialize("t", null)).isNull();
    assertThat(new AvroDeserializer<>(registry, GpuSample.class).deserialize("t", null)).isNull();
  }
}
