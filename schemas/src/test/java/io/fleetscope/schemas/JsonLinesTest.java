package io.fleetscope.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLinesTest {

  @Test
  void writesPlainJsonWithExactlyTheSchemaFields() {
    GpuSample s = GpuSample.newBuilder().setTs(1000L).setCluster("c1").setNode("n1").setAgentSeq(1)
        .setGpu(0).setTempC(70.5).setRowRemapPending(true).build();
    String line = JsonLines.toJson(new JsonLines.Line(Topics.GPU, "n1", s));
    assertThat(line).startsWith("{\"topic\":\"fleet.gpu.v1\",\"key\":\"n1\",\"value\":{\"ts\":1000,\"cluster\":\"c1\"");
    assertThat(line).contains("\"temp_c\":70.5").contains("\"row_remap_pending\":true").contains("\"uuid\":null");
    JsonLines.Line back = JsonLines.parse(line);
    assertThat(back.value()).isEqualTo(s);
    assertThat(back.key()).isEqualTo("n1");
  }

  @Test
  void roundTripsNestedRecordsArraysMapsAndBytes() {
    InventoryRecord inv = InventoryRecord.newBuilder().setTs(1L).setCluster("c").setKind("node").setId("n1")
        .setRack("r1").setGpus(List.of(GpuInfo.newBuilder().setIndex(0).setModel("H200").setSlowdownTempC(87.0).build()))
        .setAttributes(Map.of("os", "ubuntu")).build();
    assertThat(JsonLines.parse(JsonLines.toJson(new JsonLines.Line(Topics.INVENTORY, "n1", inv))).value()).isEqualTo(inv);
    Alert a = Alert.newBuilder().setTs(2L).setFingerprint("f").setStatus("firing").setLabels(Map.of("alertname", "X"))
        .setStartsAt(1L).setMembers(List.of("a", "b"))
        .setBlastRadius(BlastRadius.newBuilder().setGpus(32).setNodes(4).build()).build();
    assertThat(JsonLines.parse(JsonLines.toJson(new JsonLines.Line(Topics.ALERTS, "f", a))).value()).isEqualTo(a);
    DeadLetter d = DeadLetter.newBuilder().setTs(3L).setStage("sink").setReason("bad")
        .setPayload(ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 255})).build();
    DeadLetter back = (DeadLetter) JsonLines.parse(JsonLines.toJson(new JsonLines.Line(Topics.DLQ, null, d))).value();
    assertThat(back.getPayload().array()).containsExactly(0, 1, 2, 255);
  }

  @Test
  void absentOptionalFieldsTakeTheirDefault() {
    JsonLines.Line l = JsonLines.parse("{\"topic\":\"fleet.gpu.v1\",\"key\":\"n\",\"value\":"
        + "{\"ts\":1,\"cluster\":\"c\",\"node\":\"n\",\"agent_seq\":2,\"gpu\":1,\"power_w\":300}}");
    GpuSample s = (GpuSample) l.value();
    assertThat(s.getPowerW()).isEqualTo(300.0);
    assertThat(s.getTempC()).isNull();
  }

  @Test
  void refusesBadLinesNamingTheProblem() {
    assertThatThrownBy(() -> JsonLines.parse("not json")).hasMessageStartingWith("not JSON");
    assertThatThrownBy(() -> JsonLines.parse("{\"topic\":\"fleet.nope.v1\",\"value\":{}}"))
        .hasMessageContaining("unknown topic 'fleet.nope.v1'");
    assertThatThrownBy(() -> JsonLines.parse("{\"topic\":\"fleet.gpu.v1\",\"value\":{\"ts\":1}}"))
        .hasMessageContaining("missing required field 'GpuSample.cluster'");
    assertThatThrownBy(() -> JsonLines.parse("{\"topic\":\"fleet.gpu.v1\",\"value\":"
        + "{\"ts\":1,\"cluster\":\"c\",\"node\":\"n\",\"agent_seq\":2,\"gpu\":1,\"bogus\":1}}"))
        .hasMessageContaining("unknown field 'GpuSample.bogus'");
    assertThatThrownBy(() -> JsonLines.parse("{\"topic\":\"fleet.gpu.v1\",\"value\":"
        + "{\"ts\":\"x\",\"cluster\":\"c\",\"node\":\"n\",\"agent_seq\":2,\"gpu\":1}}"))
        .hasMessageContaining("field 'GpuSample.ts' must be a long");
  }

  @Test
  void everyTopicHasASchemaWithTheCommonFields() {
    for (Topics.TopicSpec t : Topics.all().values()) {
      assertThat(t.schema().getField("ts")).as(t.name()).isNotNull();
    }
    assertThat(Topics.all()).hasSize(19); // 15 + fleet.storage.v1 + fleet.fabric.config.v1 + fleet.nvlink.v1 + fleet.gpu.mig.v1
  }
}
