package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.config.Settings;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    assertThatThrownBy(() -> SinkConfig.of(Map.of("retention.raw_days", "two weeks")))
        .hasMessage("retention.raw_days must be a whole number, got 'two weeks'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("jdbc.url", "postgres://x"))).hasMessageContaining("jdbc:postgresql:");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.topics", "fleet.gpu.v2"))).hasMessageContaining("unknown topic 'fleet.gpu.v2'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.copy_mode", "direct")))
        .hasMessage("sink.copy_mode must be staging or direct-first, got 'direct'");
    assertThatThrownBy(() -> SinkConfig.of(Map.of("sink.copy_format", "text")))
        .hasMessage("sink.copy_format must be binary or csv, got 'text'");
    assertThat(SinkConfig.of(Map.of("sink.copy_mode", "staging", "sink.copy_format", "csv")).copyFormat())
        .isEqualTo(io.fleetscope.sink.write.CopyFormat.CSV);
  }

  @Test
  void theExampleFileListsEveryKeyWithItsDefault() throws Exception {
    Path example = Path.of("sink.yaml.example");
    assertThat(Files.readString(example)).as("sink.yaml.example is SinkConfig.yamlTemplate()").isEqualTo(SinkConfig.yamlTemplate());
    Map<String, String> file = SinkConfig.readFile(example);
    assertThat(file.keySet()).containsExactlyInAnyOrderElementsOf(SinkConfig.KEYS.stream().map(Settings.Key::name).toList());
    for (Settings.Key k : SinkConfig.KEYS) {
      assertThat(file.get(k.name())).as(k.name()).isEqualTo(k.defaultValue());
    }
    assertThat(SinkConfig.of(file).asMap()).isEqualTo(SinkConfig.defaults().asMap());
  }

  @Test
  void theReadmeTableIsTheDeclaredKeys() throws Exception {
    assertThat(Files.readString(Path.of("README.md"))).as("README.md settings table (SinkConfig.markdownTable())")
        .contains(SinkConfig.markdownTable());
  }

  @Test
  void yamlFilesAreReadBySectionAndKey(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("sink.yaml");
    Files.writeString(f, "kafka:\n  bootstrap_servers: file:9092\nsink:\n  workers: 3\n  topics: [fleet.gpu.v1, fleet.ib.v1]\n"
        + "jdbc:\n  password:\n");
    SinkConfig c = SinkConfig.of(SinkConfig.readFile(f));
    assertThat(c.string(SinkConfig.KAFKA)).isEqualTo("file:9092");
    assertThat(c.integer(SinkConfig.WORKERS)).isEqualTo(3);
    assertThat(c.topics()).containsExactly("fleet.gpu.v1", "fleet.ib.v1");
    assertThat(c.string(SinkConfig.JDBC_PASSWORD)).isEmpty();
  }

  @Test
  void yamlFilesWithUnknownKeysOrWrongTypesAreRefusedNamingTheKey(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("sink.yaml");
    Files.writeString(f, "sink:\n  wokers: 3\n");
    assertThatThrownBy(() -> SinkConfig.readFile(f)).hasMessageContaining("unknown setting 'sink.wokers'")
        .hasMessageContaining("known settings: kafka.bootstrap_servers,").hasMessageContaining("sink.workers");
    Files.writeString(f, "sinc:\n  workers: 3\n");
    assertThatThrownBy(() -> SinkConfig.readFile(f)).hasMessageContaining("unknown section 'sinc'")
        .hasMessageContaining("known sections: kafka, schema_registry, jdbc, sink, retention, rollup");
    Files.writeString(f, "retention:\n  raw_days: two weeks\n");
    assertThatThrownBy(() -> SinkConfig.readFile(f)).hasMessageContaining("retention.raw_days must be a whole number, got a text 'two weeks'");
    Files.writeString(f, "jdbc:\n  url: {host: h}\n");
    assertThatThrownBy(() -> SinkConfig.readFile(f)).hasMessageContaining("jdbc.url must be a text, got a mapping");
    Files.writeString(f, "sink.workers: 3\n");
    assertThatThrownBy(() -> SinkConfig.readFile(f)).hasMessageContaining("unknown section 'sink.workers'");
  }

  @Test
  void flagsOverrideAndSetAnyKey() throws Exception {
    SinkConfig c = SinkMain.parse(new String[] {"--kafka", "k:1", "--jdbc", "jdbc:postgresql://h/db", "--set", "sink.workers=4"});
    assertThat(c.string(SinkConfig.KAFKA)).isEqualTo("k:1");
    assertThat(c.integer(SinkConfig.WORKERS)).isEqualTo(4);
    assertThatThrownBy(() -> SinkMain.parse(new String[] {"--set", "noequals"})).hasMessageContaining("key=value");
  }

  @Test
  void theSinkWritesAsItsOwnRoleAndMigratesAsTheOwnerWithPasswordsFromFiles(@TempDir Path dir) throws Exception {
    SinkConfig d = SinkMain.parse(new String[0], Map.of());
    assertThat(d.string(SinkConfig.JDBC_USER)).isEqualTo("fleetscope_sink");
    assertThat(d.string(SinkConfig.OWNER_USER)).isEqualTo("fleetscope");
    assertThat(d.string(SinkConfig.JDBC_PASSWORD)).isEmpty();

    Path writer = Files.writeString(dir.resolve("writer.pw"), "w-secret\n");
    Path owner = Files.writeString(dir.resolve("owner.pw"), "o-secret\n");
    SinkConfig c = SinkMain.parse(new String[] {"--jdbc-password-file", writer.toString(),
        "--jdbc-owner", "dbowner", "--jdbc-owner-password-file", owner.toString()}, Map.of());
    assertThat(c.string(SinkConfig.JDBC_PASSWORD)).isEqualTo("w-secret");
    assertThat(c.string(SinkConfig.OWNER_USER)).isEqualTo("dbowner");
    assertThat(c.string(SinkConfig.OWNER_PASSWORD)).isEqualTo("o-secret");
    assertThat(io.fleetscope.sink.db.Database.owner(c).user()).isEqualTo("dbowner");
    assertThat(io.fleetscope.sink.db.Database.from(c).user()).isEqualTo("fleetscope_sink");

    SinkConfig env = SinkMain.parse(new String[0], Map.of("FLEETSCOPE_JDBC_PASSWORD", "w-env",
        "FLEETSCOPE_JDBC_OWNER_PASSWORD_FILE", owner.toString()));
    assertThat(env.string(SinkConfig.JDBC_PASSWORD)).isEqualTo("w-env");
    assertThat(env.string(SinkConfig.OWNER_PASSWORD)).isEqualTo("o-secret");

    SinkConfig self = SinkMain.parse(new String[] {"--set", "jdbc.owner_user="}, Map.of());
    assertThat(io.fleetscope.sink.db.Database.owner(self).user()).isEqualTo("fleetscope_sink");

    assertThatThrownBy(() -> SinkMain.parse(new String[] {"--jdbc-password", "x"}, Map.of()))
        .hasMessageContaining("Unknown option");
  }
}
