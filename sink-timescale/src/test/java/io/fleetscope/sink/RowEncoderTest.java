package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.RetentionJob;
import io.fleetscope.sink.maintenance.RollupMaintainer;
import io.fleetscope.sink.query.NamedQuery;
import io.fleetscope.sink.query.QueryParam;
import io.fleetscope.sink.query.SreQueries;
import io.fleetscope.sink.write.Column;
import io.fleetscope.sink.write.ColumnType;
import io.fleetscope.sink.write.CopyBuffer;
import io.fleetscope.sink.write.RowEncoder;
import io.fleetscope.sink.write.Tables;
import java.io.File;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Pure logic of the sink, no broker or database. */
class RowEncoderTest {
  final Schema schema = Topics.require(Topics.GPU_XID).schema();
  final List<Column> columns = List.of(new Column("ts", ColumnType.TIMESTAMPTZ), new Column("cluster", ColumnType.TEXT),
      new Column("node", ColumnType.TEXT), new Column("agent_seq", ColumnType.BIGINT), new Column("source", ColumnType.TEXT),
      new Column("gpu", ColumnType.INTEGER), new Column("pci_bus_id", ColumnType.TEXT), new Column("xid", ColumnType.INTEGER),
      new Column("message", ColumnType.TEXT), new Column("pid", ColumnType.BIGINT));

  @Test
  void csvQuotesTextAndLeavesNullsEmpty() {
    RowEncoder e = new RowEncoder(schema, columns, "gpu_xid");
    StringBuilder sb = new StringBuilder();
    e.encode(io.fleetscope.avro.GpuXid.newBuilder().setTs(1_780_000_000_123L).setCluster("c").setNode("n").setAgentSeq(7)
        .setXid(79).setMessage("fell \"off\", the bus").setSource("").build(), sb);
    assertThat(sb.toString()).isEqualTo("2026-05-28T20:26:40.123Z,\"c\",\"n\",7,\"\",,,79,\"fell \"\"off\"\", the bus\",\n");
  }

  @Test
  void binaryTuplesHoldPostgresBinaryForms() {
    RowEncoder e = new RowEncoder(schema, columns, "gpu_xid");
    assertThat(e.binaryCopyable()).isTrue();
    CopyBuffer out = new CopyBuffer(16);
    // 2000-01-01T00:00:00.001Z: 1,000 microseconds after PostgreSQL's epoch
    e.encodeBinary(io.fleetscope.avro.GpuXid.newBuilder().setTs(946_684_800_001L).setCluster("c").setNode("né").setAgentSeq(7)
        .setXid(79).setMessage("").setSource("s").build(), out);
    byte[] expected = {
        0, 10, // fields
        0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x03, (byte) 0xe8, // ts
        0, 0, 0, 1, 'c', // cluster
        0, 0, 0, 3, 'n', (byte) 0xc3, (byte) 0xa9, // node, UTF-8
        0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 7, // agent_seq
        0, 0, 0, 1, 's', // source
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, // gpu NULL
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, // pci_bus_id NULL
        0, 0, 0, 4, 0, 0, 0, 79, // xid
        0, 0, 0, 0, // message ""
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}; // pid NULL
    assertThat(out.toByteArray()).isEqualTo(expected);
  }

  @Test
  void binaryRefusesWhatTheColumnCannotHoldAndTypesItDoesNotCover() {
    Schema gpu = Topics.require(Topics.GPU).schema();
    List<Column> cols = new ArrayList<>();
    for (Schema.Field f : gpu.getFields()) {
      cols.add(new Column(f.name(), f.name().equals("agent_seq") ? ColumnType.INTEGER : ColumnType.BIGINT));
    }
    RowEncoder e = new RowEncoder(gpu, cols, "gpu");
    GpuSample g = new GpuSample();
    g.setAgentSeq(1L << 40);
    assertThatThrownBy(() -> e.encodeBinary(g, new CopyBuffer(64))).hasMessageContaining("out of range for integer column agent_seq");
    List<Column> smallint = new ArrayList<>(columns);
    smallint.set(5, new Column("gpu", ColumnType.INTEGER, "smallint"));
    assertThat(new RowEncoder(schema, smallint, "gpu_xid").binaryCopyable()).as("smallint is not int4 on the wire").isFalse();
  }

  @Test
  void aFieldWithoutAColumnIsRefused() {
    assertThatThrownBy(() -> new RowEncoder(schema, columns.subList(0, 9), "gpu_xid"))
        .hasMessageContaining("field pid has no column in table gpu_xid");
  }
}
