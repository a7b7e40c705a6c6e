package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.grafana.GrafanaDashboards;
import io.fleetscope.sink.grafana.GrafanaDashboards.Dashboard;
import io.fleetscope.sink.grafana.GrafanaDashboards.Query;
import io.fleetscope.sink.grafana.GrafanaMacros;
import io.fleetscope.sink.maintenance.RollupMaintainer;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every SQL query of the Grafana dashboards (deploy/grafana), panel targets and template variables,
 * with Grafana's macros and the variables expanded, runs on the real schema (the sink's migrations
 * on TimescaleDB) filled by the sink's own writers with an hour of every topic, as the read-only
 * role Grafana's data source uses (fleetscope_reader), and returns rows; a time-series query
 * returns a {@code time} column.
 */
class GrafanaSqlPanelsIT {
  static final Instant TO = Instant.parse("2026-05-31T12:00:00Z");
  static final Instant FROM = TO.minus(Duration.ofHours(1));
  static final String CL = "qa";
  static final String NODE = CL + "-n1";
  static final int GPU = 3;
  static String jdbc;

  @BeforeAll
  static void seed() throws Exception {
    LocalPostgres pg = TestServices.postgres();
    jdbc = pg.createDatabase("grafana_panels");
    try (Connection c = connect()) {
      Migrator.migrate(c);
      Map<String, List<SpecificRecord>> byTopic = new LinkedHashMap<>();
      long seq = 100;
      for (Instant t = FROM.plusSeconds(30); !t.isAfter(TO); t = t.plusSeconds(60)) {
        long ts = t.toEpochMilli();
        SampleRecords.everyTopic(CL, ts).forEach((topic, records) ->
            records.forEach(k -> byTopic.computeIfAbsent(topic, x -> new ArrayList<>()).add(k.value())));
        // the GPU the detail dashboard looks at: the one with the XID and the anomaly of everyTopic
        byTopic.get(Topics.GPU).add(SampleRecords.gpu(CL, NODE, GPU, ts, seq++));
        byTopic.get(Topics.ECC_TREND).add(EccTrend.newBuilder((EccTrend) byTopic.get(Topics.ECC_TREND).get(0))
            .setTs(ts).setGpu(GPU).build());
      }
      for (Map.Entry<String, List<SpecificRecord>> e : byTopic.entrySet()) {
        // a refused seed row would let a panel pass on less data than it claims
        assertThat(DirectWriter.write(c, e.getKey(), e.getValue()).rejects()).as(e.getKey() + " rejects").isEmpty();
      }
      new RollupMaintainer().refresh(c);
    }
  }

  static Connection connect() throws SQLException {
    return new Database(jdbc, LocalPostgres.SUPERUSER, "", "").open();
  }

  @Test
  void dashboardsReferToTheProvisionedDataSourcesAndHaveUniqueIds() throws Exception {
    JsonNode prov = new ObjectMapper(new YAMLFactory()).readTree(
        Files.readString(GrafanaDashboards.root().resolve("provisioning/datasources/fleetscope.yaml")));
    Set<String> provisioned = new HashSet<>();
    prov.path("datasources").forEach(d -> provisioned.add(d.path("uid").asText()));
    assertThat(provisioned).containsExactlyInAnyOrder(GrafanaDashboards.TIMESCALEDB, GrafanaDashboards.PROMETHEUS);

    List<Dashboard> all = GrafanaDashboards.all();
    assertThat(all).extracting(d -> d.file().getFileName().toString()).containsExactlyInAnyOrder(
        "fleet-overview.json", "gpu-detail.json", "fabric-rails.json", "power-cooling.json", "checkpoint-slos.json",
        "incidents.json", "pipeline-health.json");
    assertThat(all).extracting(d -> d.json().path("uid").asText()).doesNotHaveDuplicates().allMatch(u -> !u.isBlank());
    for (Dashboard d : all) {
      List<JsonNode> panels = GrafanaDashboards.panels(d.json());
      assertThat(panels).as(d.title()).isNotEmpty();
      assertThat(panels).as(d.title() + " panel ids").extracting(p -> p.path("id").asInt()).doesNotHaveDuplicates();
    }
    for (Query q : GrafanaDashboards.queries(all)) {
      assertThat(provisioned).as(q + " data source").contains(q.datasourceUid());
      assertThat(q.text()).as(q + " query").isNotBlank();
    }
  }

  @Test
  void everySqlQueryRunsOnTheRealSchemaAsTheReaderAndReturnsRows() throws Exception {
    GrafanaMacros macros = new GrafanaMacros(FROM, TO, Duration.ofMinutes(5),
        Map.of("cluster", CL, "node", NODE, "gpu", Integer.toString(GPU), "job", "job-42"));
    List<Query> sql = GrafanaDashboards.queries(GrafanaDashboards.all()).stream()
        .filter(q -> q.datasourceUid().equals(GrafanaDashboards.TIMESCALEDB)).toList();
    assertThat(sql).as("SQL queries in the dashboards").hasSizeGreaterThan(40);
    List<String> failures = new ArrayList<>();
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SET ROLE " + LocalPostgres.READER_GROUP);
        s.execute("SET TRANSACTION READ ONLY");
      }
      for (Query q : sql) {
        String expanded = macros.expand(q.text());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(expanded)) {
          ResultSetMetaData md = rs.getMetaData();
          int rows = 0;
          while (rs.next()) {
            rows++;
          }
          if (rows == 0) {
            failures.add(q + ": no rows");
          }
          if (q.format().equals("time_series")) {
            int time = column(md, "time");
            if (time < 0) {
              failures.add(q + ": a time series without a 'time' column");
            } else if (!isTimeOrNumber(md.getColumnType(time))) {
              failures.add(q + ": column 'time' is " + md.getColumnTypeName(time));
            }
          }
        } catch (SQLException e) {
          failures.add(q + ": " + e.getMessage().lines().findFirst().orElse("") + "\n    " + expanded);
          c.rollback();
          try (Statement s = c.createStatement()) {
            s.execute("SET ROLE " + LocalPostgres.READER_GROUP);
            s.execute("SET TRANSACTION READ ONLY");
          }
        }
      }
      c.rollback();
    }
    assertThat(failures).as("SQL queries that failed or returned nothing").isEmpty();
  }

  @Test
  void aMisspeltColumnOrVariableIsCaught() throws Exception {
    GrafanaMacros macros = new GrafanaMacros(FROM, TO, Duration.ofMinutes(1), Map.of("cluster", CL));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> macros.expand("SELECT 1 WHERE node = '$nod'"))
        .hasMessageContaining("$nod");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery(
          macros.expand("SELECT $__timeGroupAlias(ts, $__interval), avg(temp_celsius) FROM gpu WHERE $__timeFilter(ts) GROUP BY 1")))
          .isInstanceOf(SQLException.class).hasMessageContaining("temp_celsius");
    }
  }

  private static int column(ResultSetMetaData md, String name) throws SQLException {
    for (int i = 1; i <= md.getColumnCount(); i++) {
      if (md.getColumnLabel(i).equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isTimeOrNumber(int type) {
    return switch (type) {
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.NUMERIC, Types.DOUBLE, Types.BIGINT, Types.INTEGER,
          Types.REAL, Types.FLOAT, Types.DECIMAL -> true;
      default -> false;
    };
  }
}
