package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code up} in a JVM of its own that exits, the services still running afterwards, status,
 * an idempotent second up, down and up again keeping schema ids and database rows, and down.
 * Free ports, a temporary state directory.
 */
class LocalStackIT {
  private static Path stateDir;
  private static Map<String, String> env;
  private static StackConfig config;

  @BeforeAll
  static void prepare() throws Exception {
    stateDir = Files.createTempDirectory("fleetscope-stack-it-");
    // PostgreSQL runs as the postgres OS user when we are root: it must reach the state dir
    Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    env = new HashMap<>();
    env.put("FLEETSCOPE_STATE_DIR", stateDir.toString());
    env.put("FLEETSCOPE_KAFKA_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_KAFKA_CONTROLLER_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_REGISTRY_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_PG_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_ALERTMANAGER_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_FLINK_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_FLINK_RPC_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_FLINK_BLOB_PORT", Integer.toString(FreePorts.pick()));
    env.put("FLEETSCOPE_FLINK_TM_MEMORY", "1g");
    config = StackConfig.fromEnv(env, Path.of("").toAbsolutePath());
  }

  @AfterAll
  static void cleanup() throws Exception {
    new LocalStack(config).down();
    if (!Boolean.getBoolean("fleetscope.test.keep")) {
      try (var files = Files.walk(stateDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  @Test
  void upInAnotherJvmLeavesServicesRunningThenDownStopsThem() throws Exception {
    Run up = runCommand("up");
    assertThat(up.rc).as(up.out).isZero();
    assertThat(up.out).contains("service=kafka endpoint=" + config.kafkaBootstrap() + " health=ok state=started",
        "service=registry endpoint=" + config.registryUrl() + " health=ok state=started",
        "service=postgres endpoint=127.0.0.1:" + config.postgresPort() + " health=ok state=started",
        "service=alertmanager endpoint=" + config.alertmanagerUrl() + " health=ok state=started",
        "service=flink endpoint=" + config.flinkRestUrl() + " health=ok state=started");

    // the JVM that ran up has exited; the services still answer
    List<LocalStack.ServiceStatus> status = new LocalStack(config).status();
    assertThat(status).extracting(LocalStack.ServiceStatus::service)
        .containsExactly("kafka", "registry", "postgres", "alertmanager", "flink");
    assertThat(status).allMatch(LocalStack.ServiceStatus::healthy);
    assertThat(status.get(2).detail()).contains("timescaledb=" + InstalledTimescale.newestVersion(),
        "license=" + InstalledTimescale.defaultLicense());

    Run st = runCommand("status");
    assertThat(st.rc).as(st.out).isZero();
    assertThat(st.out.lines().filter(l -> l.startsWith("service=")).count()).isEqualTo(5);
    assertThat(st.out).contains("service=flink endpoint=" + config.flinkRestUrl() + " health=ok taskmanagers=1 slots_total=2");

    // up again: nothing started twice
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    assertThat(StackCommands.up(config, new PrintStream(buf, true, StandardCharsets.UTF_8))).isZero();
    String again = buf.toString(StandardCharsets.UTF_8);
    assertThat(again.lines().filter(l -> l.contains("state=already-running")).count()).as(again).isEqualTo(5);

    everyListeningSocketOfTheStackIsOnLoopback();
    thePostgresRolesHaveGeneratedPasswordsAndTcpNeedsThem();

    // logs and pids live under the state dir
    assertThat(stateDir.resolve("run/kafka.pid")).exists();
    assertThat(stateDir.resolve("run/registry.pid")).exists();
    assertThat(stateDir.resolve("kafka/broker.log")).isNotEmptyFile();
    assertThat(stateDir.resolve("registry/registry.log")).isNotEmptyFile();
    assertThat(stateDir.resolve("postgres/postgres.log")).exists();
    assertThat(stateDir.resolve("run/flink-jobmanager.pid")).exists();
    assertThat(stateDir.resolve("run/flink-taskmanager.pid")).exists();
    assertThat(stateDir.resolve("flink/log/jobmanager.log")).isNotEmptyFile();
    assertThat(stateDir.resolve("flink/log/taskmanager-1.log")).isNotEmptyFile();

    // state that must survive down + up: a schema id and a row in TimescaleDB
    RegistryHttp http = new RegistryHttp(config.registryUrl());
    String schema = "{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"}]}";
    int id = http.post("/subjects/it.stack-value/versions", RegistryHttp.schemaBody(schema)).body().get("id").asInt();
    try (Connection c = ownerConnection(); Statement sql = c.createStatement()) {
      sql.execute("CREATE TABLE kept (ts timestamptz NOT NULL, v int)");
      sql.execute("SELECT create_hypertable('kept', 'ts')");
      sql.execute("INSERT INTO kept VALUES (now(), 42)");
    }

    buf.reset();
    assertThat(StackCommands.down(config, new PrintStream(buf, true, StandardCharsets.UTF_8))).isZero();
    String firstDown = buf.toString(StandardCharsets.UTF_8);
    assertThat(firstDown.lines().filter(l -> l.contains("state=stopped")).count()).as(firstDown).isEqualTo(5);

    buf.reset();
    assertThat(StackCommands.up(config, new PrintStream(buf, true, StandardCharsets.UTF_8))).as(buf.toString()).isZero();
    JsonNode v1 = http.get("/subjects/it.stack-value/versions/1").body();
    assertThat(v1.get("id").asInt()).isEqualTo(id);
    assertThat(http.post("/subjects/it.stack-value/versions", RegistryHttp.schemaBody(schema)).body().get("id").asInt())
        .isEqualTo(id);
    try (Connection c = ownerConnection(); Statement sql = c.createStatement();
        ResultSet rs = sql.executeQuery("SELECT v FROM kept")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(42);
    }

    buf.reset();
    assertThat(StackCommands.down(config, new PrintStream(buf, true, StandardCharsets.UTF_8))).isZero();
    String down = buf.toString(StandardCharsets.UTF_8);
    assertThat(down.lines().filter(l -> l.contains("state=stopped")).count()).as(down).isEqualTo(5);
    assertThat(new LocalStack(config).status()).noneMatch(LocalStack.ServiceStatus::healthy);
    assertThat(StackCommands.status(config, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isEqualTo(1);

    // a second down finds nothing to stop
    assertThat(new LocalStack(config).down()).allMatch(s -> s.detail().contains("state=not-running"));
  }

  private record Run(int rc, String out) {}

  private static Run runCommand(String cmd) throws Exception {
    List<String> c = new ArrayList<>(List.of(JavaClasspath.javaExecutable(), "-cp", JavaClasspath.current(),
        StackCommands.class.getName(), cmd));
    ProcessBuilder pb = new ProcessBuilder(c).redirectErrorStream(false);
    pb.environment().putAll(env);
    Path err = stateDir.resolve(cmd + ".stderr");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out + "\n(stderr tail)\n" + ChildProcesses.tail(err, 15));
  }

  /** The owner's connection, with the password the stack generated. */
  private static Connection ownerConnection() throws Exception {
    Properties p = new Properties();
    p.setProperty("password", Files.readAllLines(config.secretsDir().resolve("fleetscope.password")).get(0));
    return DriverManager.getConnection(config.postgresJdbcUrl(), p);
  }

  /** Every TCP socket that the stack's processes (and their children) listen on is on 127.0.0.1. */
  private static void everyListeningSocketOfTheStackIsOnLoopback() throws Exception {
    List<Long> pids = new ArrayList<>();
    try (var files = Files.list(stateDir.resolve("run"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        pids.add(Long.parseLong(Files.readString(f).trim()));
      }
    }
    pids.add(Long.parseLong(Files.readAllLines(stateDir.resolve("postgres/pgdata/postmaster.pid")).get(0).trim()));
    assertThat(pids).hasSizeGreaterThanOrEqualTo(6);
    List<ListeningSockets.Listener> listeners = ListeningSockets.of(pids);
    assertThat(listeners).extracting(ListeningSockets.Listener::port).contains(config.kafkaPort(), config.kafkaControllerPort(),
        config.registryPort(), config.postgresPort(), config.alertmanagerPort(), config.flinkRestPort(), config.flinkRpcPort(),
        config.flinkBlobPort());
    System.out.println("stack listening sockets=" + listeners.size());
    listeners.forEach(l -> System.out.println("stack listening " + l));
    assertThat(listeners).as("sockets not on loopback").filteredOn(l -> !l.loopback()).isEmpty();
  }

  private static void thePostgresRolesHaveGeneratedPasswordsAndTcpNeedsThem() throws Exception {
    Path secrets = config.secretsDir();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets))).isEqualTo("rwx------");
    for (String role : List.of("postgres", "fleetscope", "fleetscope_sink", "fleetscope_console")) {
      Path f = secrets.resolve(role + ".password");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString()).isEqualTo("rw-------");
      String password = Files.readAllLines(f).get(0);
      try (Connection c = DriverManager.getConnection(config.postgresJdbcUrl().replace("user=fleetscope", "user=" + role),
          props(password)); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_user")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo(role);
      }
      assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> DriverManager.getConnection(
          config.postgresJdbcUrl().replace("user=fleetscope", "user=" + role), props("wrong")).close()))
          .as(role).hasMessageContaining("password authentication failed");
    }
    assertThat(Files.readString(stateDir.resolve("postgres/pgdata/pg_hba.conf")))
        .contains("host all all 127.0.0.1/32 scram-sha-256").doesNotContain("trust");
  }

  private static Properties props(String password) {
    Properties p = new Properties();
    p.setProperty("password", password);
    return p;
  }
}
