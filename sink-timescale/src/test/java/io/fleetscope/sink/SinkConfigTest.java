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
class SinkConfigTest {
  @Test
  void defaultsAreDocumentedAndValid() {
    SinkConfig c = SinkConfig.defaults();
    assertThat(c.integer(SinkConfig.WORKERS)).isEqualTo(2);
    assertThat(c.days(SinkConfig.RAW_DAYS)).isEqualTo(Duration.ofDays(14));
    assertThat(c.days(SinkConfig.ROLLUP_DAYS)).isEqualTo(Duration.ofDays(400));
    assertThat(c.topics()).containsExactlyElementsOf(Topics.all().keySet());
    assertThat(c.directFirst()).isTrue();
    assertThat(c.copyFormat()).isEqualTo(io.fleetscope.sink.write.CopyFormat.BINARY);
    assertThat(SinkConfig.KEYS).allSatisfy(k -> assertThat(k.doc()).isNotBlank());
  }

  @Test
  void badSettingsAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.wokers", "3")))
        .hasMessageContaining("unknown setting 'sink.wokers'").hasMessageContaining("sink.workers");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.workers", "0"))).hasMessage("sink.workers must be > 0, got 0");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("retention.raw.days", "two weeks")))
        .hasMessage("retention.raw.days must be a whole number, got 'two weeks'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("jdbc.url", "postgres://x"))).hasMessageContaining("jdbc:postgresql:");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.topics", "fleet.gpu.v2"))).hasMessageContaining("unknown topic 'fleet.gpu.v2'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.copy.mode", "direct")))
        .hasMessage("sink.copy.mode must be staging or direct-first, got 'direct'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.copy.format", "text")))
        .hasMessage("sink.copy.format must be binary or csv, got 'text'");
    assertThat(SinkConfig.of(Map.of("sink.copy.mode", "staging", "sink.copy.format", "csv")).copyFormat())
        .isEqualTo(io.fleetscope.sink.write.CopyFormat.CSV);
  }

  @Test
  void theExampleFileListsEveryKeyWithItsDefault() throws Exception {
    Map<String, String> file = SinkConfig.readFile(java.nio.file.Path.of("sink.properties.example"));
    assertThat(file.keySet()).containsExactlyInAnyOrderElementsOf(SinkConfig.KEYS.stream().map(SinkConfig.Key::name).toList());
    for (SinkConfig.Key k : SinkConfig.KEYS) {
      assertThat(file.get(k.name())).as(k.name()).isEqualTo(k.defaultValue());
    }
  }

  @Test
  void flagsOverrideAndSetAnyKey() throws Exception {
    SinkConfig c = SinkMain.parse(new String[] {"--kafka", "k:1", "--jdbc", "jdbc:postgresql://h/db", "--set", "sink.workers=4"});
    assertThat(c.string(SinkConfig.KAFKA)).isEqualTo("k:1");
    assertThat(c.integer(SinkConfig.WORKERS)).isEqualTo(4);
    assertThatThrownBy(() -> SinkMain.parse(new String[] {"--set", "noequals"})).hasMessageContaining("key=value");
  }
}
