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
class MigrationsTest {
  @Test
  void theIndexListsEveryFileInOrder() throws URISyntaxException {
    File dir = new File(Migrator.class.getClassLoader().getResource("db/migration").toURI());
    List<String> files = new ArrayList<>(Arrays.asList(dir.list((d, n) -> n.endsWith(".sql"))));
    files.sort(null);
    assertThat(Migrator.load()).extracting(Migrator.Migration::file).containsExactlyElementsOf(files);
    assertThat(Migrator.load()).filteredOn(m -> m.edition() != null).extracting(Migrator.Migration::edition)
        .containsOnly("community");
  }

  @Test
  void editionFromLicense() {
    assertThat(Edition.fromLicense("apache")).isEqualTo(Edition.APACHE);
    assertThat(Edition.fromLicense("timescale")).isEqualTo(Edition.COMMUNITY);
    assertThatThrownBy(() -> Edition.fromLicense("gpl")).hasMessageContaining("unknown timescaledb.license 'gpl'");
  }

  @Test
  void everyTopicHasATableAndRetentionKeepsAlerts() {
    assertThat(Tables.all().keySet()).containsExactlyElementsOf(Topics.all().keySet());
    Map<String, Duration> w = RetentionJob.windows(SinkConfig.defaults());
    assertThat(w).containsEntry("gpu_raw", Duration.ofDays(14)).containsEntry("gpu_xid", Duration.ofDays(400))
        .containsEntry("gpu_rollup_1m", Duration.ofDays(400)).doesNotContainKey("alerts");
  }
}
