package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class LocalPostgresIT {
  @Test
  void freshDatabaseHasTimescaleAndDataSurvivesRestart() throws Exception {
    LocalPostgres pg = TestServices.postgres();
    String url = pg.createDatabase("it_localpostgres");
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      assertThat(scalar(st, "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")).isEqualTo(InstalledTimescale.newestVersion());
      // test clusters run the Apache edition whatever is built (community tests ask for theirs)
      assertThat(scalar(st, "SHOW timescaledb.license")).isEqualTo("apache");
      assertThat(scalar(st, "SHOW fsync")).isEqualTo("off");
      assertThat(scalar(st, "SHOW timescaledb.telemetry_level")).isEqualTo("off");
      st.execute("CREATE TABLE m (ts timestamptz NOT NULL, node text NOT NULL, v double precision)");
      st.execute("SELECT create_hypertable('m', 'ts')");
      st.execute("INSERT INTO m SELECT to_timestamp(1764000000 + g), 'node-' || (g % 3), g FROM generate_series(1, 1000) g");
    }

    pg.restart();

    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      assertThat(scalar(st, "SELECT count(*) FROM m")).isEqualTo("1000");
      assertThat(scalar(st, "SELECT count(*) FROM timescaledb_information.hypertables WHERE hypertable_name = 'm'"))
          .isEqualTo("1");
      assertThat(scalar(st, "SELECT count(DISTINCT time_bucket('10 minutes', ts)) FROM m")).isEqualTo("2");
    }

    // the application role and database exist, with timescaledb
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl("fleetscope").replace("user=postgres", "user=fleetscope"));
        Statement st = c.createStatement()) {
      assertThat(scalar(st, "SELECT current_user")).isEqualTo("fleetscope");
      assertThat(scalar(st, "SELECT count(*) FROM pg_extension WHERE extname = 'timescaledb'")).isEqualTo("1");
    }

    // createDatabase again gives an empty database
    String again = pg.createDatabase("it_localpostgres");
    try (Connection c = DriverManager.getConnection(again); Statement st = c.createStatement()) {
      assertThat(scalar(st, "SELECT count(*) FROM pg_tables WHERE tablename = 'm'")).isEqualTo("0");
    }
  }

  private static String scalar(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }
}
