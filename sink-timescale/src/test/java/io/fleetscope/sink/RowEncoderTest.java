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

  /** The columns of gpu_raw (V012), as the database reports them. */
  private static List<Column> gpuRawColumns() {
    Schema gpu = Topics.require(Topics.GPU).schema();
    List<Column> cols = new ArrayList<>();
    for (Schema.Field f : gpu.getFields()) {
      switch (f.name()) {
        case "power_w" -> cols.add(new Column("power_mw", ColumnType.INTEGER));
        case "nvlink_tx_bytes", "nvlink_rx_bytes" -> {
          String p = f.name().substring(0, "nvlink_tx".length());
          cols.add(new Column(p + "_kib", ColumnType.BIGINT));
          cols.add(new Column(p + "_rem", ColumnType.INTEGER));
        }
        default -> cols.add(new Column(f.name(), f.schema().getType() == Schema.Type.STRING
            || f.schema().toString().contains("string") ? ColumnType.TEXT : ColumnType.BIGINT));
      }
    }
    return cols;
  }

  @Test
  void gpuSamplesAreStoredInMilliwattsAndKibExactly() {
    Schema gpu = Topics.require(Topics.GPU).schema();
    List<Column> cols = gpuRawColumns();
    RowEncoder e = new RowEncoder(gpu, cols, "gpu_raw", Tables.forTopic(Topics.GPU).converted());
    GpuSample g = new GpuSample();
    // nvidia-smi's power.draw (2 decimals) and DCGM_FI_DEV_POWER_USAGE (3 decimals) of the fixtures' kind
    g.setPowerW(698.57);
    g.setNvlinkTxBytes(123_456_789L * 1024);
    g.setNvlinkRxBytes(5L * 1024 + 7);
    StringBuilder csv = new StringBuilder();
    e.encode(g, csv);
    String[] f = csv.toString().trim().split(",", -1);
    int power = indexOf(cols, "power_mw");
    assertThat(f[power]).isEqualTo("698570");
    assertThat(Integer.parseInt(f[power]) / 1000.0).as("the view's conversion gives the double back").isEqualTo(698.57);
    assertThat(f[indexOf(cols, "nvlink_tx_kib")]).isEqualTo("123456789");
    assertThat(f[indexOf(cols, "nvlink_tx_rem")]).isEqualTo("0");
    assertThat(f[indexOf(cols, "nvlink_rx_kib")]).isEqualTo("5");
    assertThat(f[indexOf(cols, "nvlink_rx_rem")]).as("a byte-exact source stays exact").isEqualTo("7");
    g.setPowerW(8.969);
    StringBuilder dcgm = new StringBuilder();
    e.encode(g, dcgm);
    assertThat(dcgm.toString().split(",", -1)[power]).isEqualTo("8969");
    g.setPowerW(Double.NaN);
    assertThatThrownBy(() -> e.encodeBinary(g, new CopyBuffer(64))).hasMessageContaining("cannot be stored in column power_mw");
  }

  private static int indexOf(List<Column> cols, String name) {
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new AssertionError(name);
  }
}
