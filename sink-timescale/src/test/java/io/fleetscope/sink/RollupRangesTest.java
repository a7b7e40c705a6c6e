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
class RollupRangesTest {
  @Test
  void hourRangesMergeAndReachTheNextSamples() {
    List<RollupMaintainer.Range> r = RollupMaintainer.hourRanges(List.of(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:00Z"), Instant.parse("2026-05-31T10:55:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T11:10:00Z"), Instant.parse("2026-05-31T11:20:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T15:01:00Z"))));
    assertThat(r).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:00:00Z"), Instant.parse("2026-05-31T12:00:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T16:00:00Z")));
  }
}
