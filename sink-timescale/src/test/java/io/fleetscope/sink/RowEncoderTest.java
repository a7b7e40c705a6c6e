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
  void aFieldWithoutAColumnIsRefused() {
    assertThatThrownBy(() -> new RowEncoder(schema, columns.subList(0, 9), "gpu_xid"))
        .hasMessageContaining("field pid has no column in table gpu_xid");
  }
}
