package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.sink.query.QueryMain;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.JavaClasspath;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL of its own with SCRAM passwords (as the local stack runs it), the real broker and
 * registry: the sink, {@code query} and {@code export} run as child processes with the roles
 * they have by default, the passwords coming from files and the environment only. The server
 * logs every statement, so the log shows how each password was set.
 */
class DatabaseRolesIT {
  private static final String CLUSTER = "roles-it";
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final int RECORDS = 40;

  private static Path work;
  private static Path secrets;
  private static LocalPostgres pg;
  private static String url;

  @BeforeAll
  static void startPostgresWithPasswords() throws Exception {
    work = Files.createTempDirectory("fleetscope-roles-it");
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    secrets = work.resolve("secrets");
    LocalPostgres.Config config = LocalPostgres.Config.forTests(work.resolve("pg")).withSecrets(secrets);
    LocalPostgres first = LocalPostgres.start(config);
    try (Connection c = first.connect("postgres"); Statement st = c.createStatement()) {
      st.execute("ALTER SYSTEM SET log_statement = 'all'");
      st.execute("ALTER SYSTEM SET log_connections = on");
    }
    first.stop();
    // the second start sets every password again, now with every statement logged
    pg = LocalPostgres.start(config);
    url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + LocalPostgres.APP_ROLE;
  }

  @AfterAll
  static void stop() throws Exception {
    if (pg != null) {
      pg.stop();
    }
    try (Stream<Path> all = Files.walk(work)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static String password(String role) throws Exception {
    return Files.readAllLines(pg.passwordFile(role)).get(0);
  }

  private static Connection as(String role) throws Exception {
    return DriverManager.getConnection(url, role, password(role));
  }

  @Test
  void eachRoleHasAGeneratedPasswordInAPrivateFileAndEveryTcpLoginNeedsIt() throws Exception {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets))).isEqualTo("rwx------");
    for (String role : List.of("postgres", "fleetscope", "fleetscope_sink", "fleetscope_console")) {
      Path f = pg.passwordFile(role);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString()).isEqualTo("rw-------");
      assertThat(password(role)).as(role).hasSize(32).matches("[A-Za-z0-9_-]+");
      try (Connection c = DriverManager.getConnection(url, role, password(role));
           Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_user")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo(role);
      }
      assertThatThrownBy(() -> DriverManager.getConnection(url, role, "not-" + password(role)).close())
          .isInstanceOf(SQLException.class).hasMessageContaining("password authentication failed for user \"" + role + "\"");
      assertThatThrownBy(() -> DriverManager.getConnection(url + "?user=" + role).close())
          .isInstanceOf(SQLException.class).hasMessageContaining("no password was provided");
    }
    assertThat(Files.list(secrets).map(p -> p.getFileName().toString()).sorted().toList())
        .containsExactly("fleetscope.password", "fleetscope_console.password", "fleetscope_sink.password", "postgres.password");
    try (Connection c = as("fleetscope_sink"); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT pg_has_role('fleetscope_writer', 'MEMBER'), pg_has_role('fleetscope_reader', 'MEMBER'),"
             + " (SELECT rolsuper OR rolcreaterole OR rolcreatedb FROM pg_roles WHERE rolname = current_user)")) {
      rs.next();
      assertThat(List.of(rs.getBoolean(1), rs.getBoolean(2), rs.getBoolean(3))).containsExactly(true, false, false);
    }
  }

  @Test
  void theSinkWritesAsItsRoleTheReadersOnlyReadAndNoSecretIsInAnyLogOrCommandLine() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    kafka.createTopic(Topics.GPU, 3);
    Path logs = Files.createDirectories(work.resolve("logs"));
    List<String> commandLines = new ArrayList<>();

    List<String> sinkCmd = java(SinkMain.class, "--kafka", kafka.bootstrapServers(), "--registry", registry, "--jdbc", url,
        "--jdbc-password-file", pg.passwordFile("fleetscope_sink").toString(),
        "--jdbc-owner-password-file", pg.passwordFile("fleetscope").toString(),
        "--set", "sink.group_id=roles-it-" + System.nanoTime(), "--set", "sink.topics=" + Topics.GPU,
        "--set", "sink.workers=1", "--set", "rollup.interval_seconds=0", "--set", "retention.interval_minutes=0");
    Process sink = ChildProcesses.start(sinkCmd, work, logs.resolve("sink.log"), false, Map.of());
    try {
      commandLines.add(String.join(" ", sinkCmd));
      send(kafka, registry);
      awaitRows(sink, logs.resolve("sink.log"));
      commandLines.add(cmdline(sink.pid()));
      commandLines.add(cmdline(pg.pid()));

      Map<String, String> readerEnv = Map.of("FLEETSCOPE_JDBC_URL", url, "FLEETSCOPE_JDBC_PASSWORD", password("fleetscope_console"));
      List<String> queryCmd = java(QueryMain.class, "gpu-history", "--param", "node=n1", "--param", "gpu=0",
          "--param", "from=" + T0, "--param", "to=" + T0.plusSeconds(3600), "--format", "csv");
      assertThat(runToEnd(queryCmd, logs.resolve("query.log"), readerEnv, commandLines)).isZero();
      assertThat(Files.readAllLines(logs.resolve("query.log")).stream().filter(l -> l.contains(CLUSTER)).count())
          .as("query rows of node n1").isEqualTo(RECORDS / 2);

      List<String> exportCmd = java(ExportMain.class, "--jdbc", url, "--jdbc-password-file",
          pg.passwordFile("fleetscope_console").toString(), "--from", T0.toString(), "--to", T0.plusSeconds(3600).toString(),
          "--where", "cluster=" + CLUSTER, "--out", work.resolve("export").toString(), "--source", "timescaledb");
      assertThat(runToEnd(exportCmd, logs.resolve("export.log"), Map.of(), commandLines)).isZero();
      assertThat(Files.readString(logs.resolve("export.log"))).contains("export topic=fleet.gpu.v1 role=raw source=timescaledb records=" + RECORDS);
    } finally {
      sink.destroy();
      sink.waitFor(30, TimeUnit.SECONDS);
    }

    readerCannotWriteAndWriterCannotChangeTheSchema();

    String sinkLog = Files.readString(logs.resolve("sink.log"));
    assertThat(sinkLog).contains("sink migrations applied=", "as=fleetscope", "sink started", "user=fleetscope_sink");
    String serverLog = Files.readString(work.resolve("pg").resolve("postgres.log"));
    assertThat(serverLog).as("the server logged how each password was set: a verifier, not the password")
        .contains("ALTER USER \"fleetscope_sink\" PASSWORD 'SCRAM-SHA-256$4096:")
        .contains("connection authorized: user=fleetscope_console")
        .contains("connection authorized: user=fleetscope_sink");

    Map<String, String> secretsUsed = new LinkedHashMap<>();
    for (String role : List.of("postgres", "fleetscope", "fleetscope_sink", "fleetscope_console")) {
      secretsUsed.put(role, password(role));
    }
    Map<String, String> texts = new LinkedHashMap<>();
    try (Stream<Path> files = Stream.concat(Files.list(logs), Files.list(work.resolve("pg")))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        texts.put(f.toString(), Files.readString(f));
      }
    }
    for (int i = 0; i < commandLines.size(); i++) {
      texts.put("command line " + i, commandLines.get(i));
    }
    assertThat(texts).hasSizeGreaterThanOrEqualTo(8);
    for (Map.Entry<String, String> t : texts.entrySet()) {
      for (Map.Entry<String, String> s : secretsUsed.entrySet()) {
        assertThat(t.getValue().contains(s.getValue())).as("the password of " + s.getKey() + " in " + t.getKey()).isFalse();
      }
    }
  }

  @Test
  void aRunningClusterThatTrustedLoopbackIsMovedToPasswords() throws Exception {
    Path dir = work.resolve("upgrade");
    LocalPostgres.Config trusting = LocalPostgres.Config.forTests(dir.resolve("pg"));
    LocalPostgres old = LocalPostgres.start(trusting);
    try {
      String oldUrl = "jdbc:postgresql://127.0.0.1:" + old.port() + "/fleetscope?user=fleetscope";
      DriverManager.getConnection(oldUrl).close();
      // what `up` does on a state dir from before the passwords, with the server still running
      LocalPostgres upgraded = LocalPostgres.start(trusting.withSecrets(dir.resolve("secrets")));
      assertThat(upgraded.pid()).isEqualTo(old.pid());
      assertThatThrownBy(() -> DriverManager.getConnection(oldUrl).close()).isInstanceOf(SQLException.class)
          .hasMessageContaining("no password was provided");
      String pw = Files.readAllLines(upgraded.passwordFile("fleetscope_console")).get(0);
      try (Connection c = DriverManager.getConnection(oldUrl.replace("user=fleetscope", "user=fleetscope_console"),
          "fleetscope_console", pw); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_user")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("fleetscope_console");
      }
    } finally {
      old.stop();
    }
  }

  private static void readerCannotWriteAndWriterCannotChangeTheSchema() throws Exception {
    try (Connection c = as("fleetscope_console"); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM v_gpu_history WHERE cluster = '" + CLUSTER + "'")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(RECORDS);
      }
      for (String write : List.of(
          "INSERT INTO gpu_raw (ts, cluster, node, gpu, agent_seq) VALUES (now(), 'x', 'x', 0, 1)",
          "UPDATE gpu_raw SET temp_c = 0 WHERE cluster = '" + CLUSTER + "'",
          "DELETE FROM gpu_raw WHERE cluster = '" + CLUSTER + "'",
          "TRUNCATE gpu_raw",
          "CREATE TABLE reader_was_here (x int)",
          "SELECT fleetscope_drop_chunks('gpu_raw', now())")) {
        assertThatThrownBy(() -> st.execute(write)).as(write).isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(write + ": " + e.getMessage()).isEqualTo("42501"));
      }
    }
    try (Connection c = as("fleetscope_sink"); Statement st = c.createStatement()) {
      assertThat(st.executeUpdate("DELETE FROM gpu_raw WHERE cluster = 'nobody'")).isZero();
      for (String ddl : List.of("DROP TABLE gpu_raw", "DROP VIEW gpu", "CREATE TABLE writer_was_here (x int)",
          "ALTER TABLE gpu_raw ADD COLUMN y int")) {
        assertThatThrownBy(() -> st.execute(ddl)).as(ddl).isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(ddl + ": " + e.getMessage()).isEqualTo("42501"));
      }
    }
    try (Connection c = as("fleetscope_console"); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT count(*) FROM gpu WHERE cluster = '" + CLUSTER + "'")) {
      rs.next();
      assertThat(rs.getLong(1)).as("nothing the reader tried changed a row").isEqualTo(RECORDS);
    }
  }

  private static void send(LocalKafka kafka, String registry) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(p, new StringSerializer(),
        new AvroSerializer<>(new RestSchemaRegistryClient(registry)))) {
      for (int i = 0; i < RECORDS; i++) {
        String node = i % 2 == 0 ? "n1" : "n2";
        producer.send(new ProducerRecord<>(Topics.GPU, node,
            SampleRecords.gpu(CLUSTER, node, 0, T0.plusSeconds(i).toEpochMilli(), i + 1)));
      }
      producer.flush();
    }
  }

  private static void awaitRows(Process sink, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      assertThat(sink.isAlive()).as("sink exited: " + ChildProcesses.tail(log, 30)).isTrue();
      try (Connection c = as("fleetscope_console"); Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT count(*) FROM gpu WHERE cluster = '" + CLUSTER + "'")) {
        rs.next();
        if (rs.getLong(1) == RECORDS) {
          return;
        }
      } catch (SQLException e) {
        // the sink has not created the tables yet
      }
      assertThat(System.nanoTime()).as("rows stored in time; sink log: " + ChildProcesses.tail(log, 30)).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static int runToEnd(List<String> cmd, Path log, Map<String, String> env, List<String> commandLines) throws Exception {
    Process p = ChildProcesses.start(cmd, work, log, false, env);
    commandLines.add(String.join(" ", cmd));
    String live = cmdline(p.pid());
    if (!live.isEmpty()) {
      commandLines.add(live);
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(cmd.get(cmd.size() - 1)).isTrue();
    return p.exitValue();
  }

  private static List<String> java(Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>(List.of(JavaClasspath.javaExecutable(), "-Xmx256m", "-cp", JavaClasspath.current(),
        main.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** What ps shows: /proc/PID/cmdline with NULs as spaces (empty once the process is gone). */
  private static String cmdline(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (java.io.IOException e) {
      return "";
    }
  }

}
