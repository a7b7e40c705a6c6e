package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.sink.db.Migrator;
import io.fleetscope.stack.services.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sink --migrate-only} (the Kubernetes migrations Job): on a PostgreSQL of its own with
 * SCRAM passwords from files, and no Kafka anywhere, it applies every migration as the owner, checks
 * the writer's login and exits 0; a second run applies nothing.
 */
class MigrateOnlyIT {
  private static Path work;
  private static LocalPostgres pg;
  private static String url;

  @BeforeAll
  static void startPostgres() throws Exception {
    work = Files.createTempDirectory("fleetscope-migrate-only-it");
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    pg = LocalPostgres.start(LocalPostgres.Config.forTests(work.resolve("pg")).withSecrets(work.resolve("secrets")));
    url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + LocalPostgres.APP_ROLE;
  }

  @AfterAll
  static void stop() throws Exception {
    if (pg != null) {
      pg.stop();
    }
    try (Stream<Path> all = Files.walk(work)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void appliesEveryMigrationAndExitsWithoutKafka() throws Exception {
    String[] args = {"--migrate-only", "--kafka", "127.0.0.1:1", "--jdbc", url,
        "--jdbc-user", LocalPostgres.WRITER_LOGIN, "--jdbc-password-file", pg.passwordFile(LocalPostgres.WRITER_LOGIN).toString(),
        "--jdbc-owner", LocalPostgres.APP_ROLE, "--jdbc-owner-password-file", pg.passwordFile(LocalPostgres.APP_ROLE).toString(),
        "--set", "jdbc.start_wait_seconds=30"};
    assertThat(SinkMain.commandLine(new SinkMain()).execute(args)).isZero();
    int expected = Migrator.load().size();
    int applied = appliedMigrations();
    assertThat(applied).isPositive().isLessThanOrEqualTo(expected);
    assertThat(SinkMain.commandLine(new SinkMain()).execute(args)).isZero();
    assertThat(appliedMigrations()).isEqualTo(applied);
  }

  private static int appliedMigrations() throws Exception {
    try (Connection c = pg.connect(LocalPostgres.APP_ROLE); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM schema_migrations")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
