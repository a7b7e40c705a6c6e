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
class NamedQueryTest {
  final Instant now = Instant.parse("2026-05-31T12:00:00Z");

  @Test
  void timesParse() {
    QueryParam p = QueryParam.required("from", QueryParam.Type.TIME, "x");
    assertThat(p.parse("now", now)).isEqualTo(now);
    assertThat(p.parse("now-6h", now)).isEqualTo(now.minus(Duration.ofHours(6)));
    assertThat(p.parse("now-30m", now)).isEqualTo(now.minus(Duration.ofMinutes(30)));
    assertThat(p.parse("now-7d", now)).isEqualTo(now.minus(Duration.ofDays(7)));
    assertThat(p.parse("2026-05-30", now)).isEqualTo(Instant.parse("2026-05-30T00:00:00Z"));
    assertThat(p.parse("1780000000000", now)).isEqualTo(Instant.ofEpochMilli(1_780_000_000_000L));
    assertThatThrownBy(() -> p.parse("last tuesday", now)).hasMessageContaining("parameter from must be a time");
  }

  @Test
  void everyQueryDeclaresItsParametersAndCastsAreNotParameters() {
    assertThat(SreQueries.all().keySet()).containsExactly("gpu-history", "worst-gpus-ecc", "rail-utilisation",
        "throttle-minutes-per-rack", "ckpt-slo-per-job", "incident-timeline", "node-changes", "gpu-health", "job-incidents",
        "nvlink-node-bandwidth", "storage-tiers", "fabric-config");
    NamedQuery q = new NamedQuery("t", "d", "SELECT x::numeric FROM t WHERE a = :a", List.of(
        QueryParam.required("a", QueryParam.Type.TEXT, "a")));
    assertThat(q.resolve(Map.of("a", "1"), now)).containsEntry("a", "1");
    assertThatThrownBy(() -> new NamedQuery("t", "d", "SELECT :b", List.of())).hasMessageContaining("uses :b");
  }

  @Test
  void resolveRefusesUnknownAndMissing() {
    NamedQuery q = SreQueries.require("gpu-history");
    assertThatThrownBy(() -> q.resolve(Map.of("node", "n"), now)).hasMessageContaining("needs --param gpu=");
    assertThatThrownBy(() -> q.resolve(Map.of("node", "n", "gpu", "1", "colour", "red"), now))
        .hasMessageContaining("unknown parameter 'colour'");
    Map<String, Object> v = q.resolve(Map.of("node", "n", "gpu", "1"), now);
    assertThat(v).containsEntry("gpu", 1L).containsEntry("from", now.minus(Duration.ofHours(1))).containsEntry("to", now);
    assertThatThrownBy(() -> SreQueries.require("nope")).hasMessageContaining("queries: gpu-history");
  }
}
