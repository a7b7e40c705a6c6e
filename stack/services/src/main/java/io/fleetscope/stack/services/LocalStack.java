package io.fleetscope.stack.services;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.stack.services.flink.FlinkJobs;
import io.fleetscope.stack.services.flink.FlinkRest;
import io.fleetscope.stack.services.flink.LocalFlink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local infrastructure behind {@code fleetscope up | down | status}: Kafka, the schema
 * registry, PostgreSQL+TimescaleDB, Alertmanager and a Flink session cluster (a JobManager and a
 * TaskManager) as detached processes that outlive the
 * command, with pids in {@code STATE/run/*.pid} (PostgreSQL: its own postmaster.pid) and each
 * service's data and log under {@code STATE/<service>/}.
 */
public final class LocalStack {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  /** One service's endpoint and health, printed as one key=value line. */
  public record ServiceStatus(String service, String endpoint, boolean healthy, String detail) {
    public String line() {
      return "service=" + service + " endpoint=" + endpoint + " health=" + (healthy ? "ok" : "down")
          + (detail == null || detail.isEmpty() ? "" : " " + detail);
    }
  }

  private final StackConfig config;
  private final Path state;

  public LocalStack(StackConfig config) {
    this.config = config;
    this.state = config.stateDir().toAbsolutePath();
  }

  public StackConfig config() {
    return config;
  }

  // ---- up -----------------------------------------------------------------------------------

  /** Starts every service not already healthy; returns one status per service. Throws on a failure. */
  public List<ServiceStatus> up() {
    List<ServiceStatus> out = new ArrayList<>();
    out.add(upKafka());
    out.add(upRegistry());
    out.add(upPostgres());
    out.add(upAlertmanager());
    out.add(upFlink());
    return out;
  }

  private ServiceStatus upFlink() {
    ServiceStatus s = flinkStatus();
    if (s.healthy()) {
      return already(s);
    }
    LocalFlink.Config c = config.flinkConfig();
    if (s.detail().contains("reason=no-taskmanager")) {
      // the JobManager runs, its TaskManager is gone (killed, crashed): a new one, as a supervisor would
      long t0 = System.nanoTime();
      long pid = LocalFlink.addTaskManager(c, "taskmanager-" + System.currentTimeMillis() / 1000);
      writePid("flink-taskmanager", pid);
      ServiceStatus now = flinkStatus();
      return new ServiceStatus(now.service(), now.endpoint(), now.healthy(),
          "state=taskmanager-started pid=" + pid + " ms=" + ms(t0) + " " + now.detail());
    }
    refuseForeignListener("flink", c.restPort());
    refuseForeignListener("flink rpc", c.rpcPort());
    refuseForeignListener("flink blob", c.blobPort());
    long t0 = System.nanoTime();
    LocalFlink f = LocalFlink.start(c);
    writePid("flink-jobmanager", f.jobManagerPid());
    writePid("flink-taskmanager", f.taskManagers().get(0).pid());
    return started(flinkStatus(), t0, f.jobManagerPid());
  }

  private ServiceStatus upKafka() {
    ServiceStatus s = kafkaStatus();
    if (s.healthy()) {
      return already(s);
    }
    refuseForeignListener("kafka", config.kafkaPort());
    refuseForeignListener("kafka controller", config.kafkaControllerPort());
    long t0 = System.nanoTime();
    LocalKafka.Config c = LocalKafka.Config.defaults(state.resolve("kafka"))
        .withPorts(config.kafkaPort(), config.kafkaControllerPort()).withDetached(true);
    LocalKafka k = LocalKafka.start(c);
    writePid("kafka", k.pid());
    return started(kafkaStatus(), t0, k.pid());
  }

  private ServiceStatus upRegistry() {
    ServiceStatus s = registryStatus();
    if (s.healthy()) {
      return already(s);
    }
    refuseForeignListener("registry", config.registryPort());
    long t0 = System.nanoTime();
    Path dir = state.resolve("registry");
    mkdirs(dir);
    List<String> cmd = List.of(JavaClasspath.javaExecutable(), "-Xmx256m",
        "-Dorg.slf4j.simpleLogger.logFile=" + dir.resolve("registry.log"),
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=warn",
        "-cp", JavaClasspath.current(), SchemaRegistryServer.class.getName(),
        "--kafka", config.kafkaBootstrap(), "--http-port", Integer.toString(config.registryPort()));
    Process p = ChildProcesses.start(cmd, dir, dir.resolve("stdout.log"), true, Map.of());
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!(s = registryStatus()).healthy()) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        ChildProcesses.stop(p.toHandle(), Duration.ofSeconds(5));
        throw new IllegalStateException("registry did not start; log tail:\n" + ChildProcesses.tail(dir.resolve("registry.log"), 20)
            + "\n" + ChildProcesses.tail(dir.resolve("stdout.log"), 10));
      }
      pause(200);
    }
    writePid("registry", p.pid());
    return started(s, t0, p.pid());
  }

  private ServiceStatus upPostgres() {
    ServiceStatus s = postgresStatus();
    boolean passwordsSet = Files.isRegularFile(config.secretsDir().resolve(LocalPostgres.SUPERUSER + ".password"));
    if (s.healthy() && passwordsSet) {
      return already(s);
    }
    if (!s.healthy()) {
      refuseForeignListener("postgres", config.postgresPort());
    }
    // not running, or running from a state dir made before the passwords: start() also sets up
    // the roles, the password files and SCRAM on a running server
    long t0 = System.nanoTime();
    LocalPostgres pg = LocalPostgres.start(LocalPostgres.Config.durable(state.resolve("postgres"), config.postgresPort(), config.secretsDir()));
    return started(postgresStatus(), t0, pg.pid());
  }

  private ServiceStatus upAlertmanager() {
    ServiceStatus s = alertmanagerStatus();
    if (s.healthy()) {
      return already(s);
    }
    refuseForeignListener("alertmanager", config.alertmanagerPort());
    long t0 = System.nanoTime();
    Path dir = state.resolve("alertmanager");
    mkdirs(dir);
    Path cfg = config.alertmanagerConfig();
    if (cfg == null) {
      cfg = dir.resolve("alertmanager.yml");
      writeDefaultAlertmanagerConfig(cfg);
    }
    LocalAlertmanager am = LocalAlertmanager.start(new LocalAlertmanager.Config(cfg, dir, config.alertmanagerPort(),
        LocalAlertmanager.DEFAULT_BINARY, true));
    writePid("alertmanager", am.pid());
    return started(alertmanagerStatus(), t0, am.pid());
  }

  private static void writeDefaultAlertmanagerConfig(Path cfg) {
    if (Files.exists(cfg)) {
      return;
    }
    try {
      Files.writeString(cfg, String.join("\n",
          "# written by fleetscope up: routes everything to a receiver that sends nothing.",
          "# Point FLEETSCOPE_ALERTMANAGER_CONFIG at your own file to notify someone.",
          "route:",
          "  receiver: 'null'",
          "  group_by: ['alertname', 'cluster']",
          "receivers:",
          "  - name: 'null'",
          ""));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + cfg, e);
    }
  }

  // ---- down ---------------------------------------------------------------------------------

  /** Stops every service this stack started (reverse order); returns their states. */
  public List<ServiceStatus> down() {
    List<ServiceStatus> out = new ArrayList<>();
    out.add(downFlink());
    out.add(stopByPid("alertmanager", "127.0.0.1:" + config.alertmanagerPort(), "alertmanager"));
    out.add(downPostgres());
    out.add(stopByPid("registry", "127.0.0.1:" + config.registryPort(), SchemaRegistryServer.class.getName()));
    out.add(stopByPid("kafka", config.kafkaBootstrap(), "kafka.Kafka"));
    return out;
  }

  private ServiceStatus stopByPid(String service, String endpoint, String commandMarker) {
    Path pidFile = pidFile(service);
    Optional<ProcessHandle> h = readPid(service).flatMap(ChildProcesses::alive)
        .filter(p -> ChildProcesses.commandLine(p.pid()).contains(commandMarker));
    if (h.isEmpty()) {
      deleteQuietly(pidFile);
      return new ServiceStatus(service, endpoint, false, "state=not-running");
    }
    long t0 = System.nanoTime();
    ChildProcesses.stop(h.get(), Duration.ofSeconds(30));
    deleteQuietly(pidFile);
    log.info("stack stopped service={} pid={}", service, h.get().pid());
    return new ServiceStatus(service, endpoint, false, "state=stopped ms=" + ms(t0));
  }

  private ServiceStatus downPostgres() {
    String endpoint = "127.0.0.1:" + config.postgresPort();
    Path dir = state.resolve("postgres");
    if (!Files.exists(dir.resolve("pgdata").resolve("PG_VERSION"))) {
      return new ServiceStatus("postgres", endpoint, false, "state=not-running");
    }
    LocalPostgres pg = LocalPostgres.attach(LocalPostgres.Config.durable(dir, config.postgresPort(), config.secretsDir()));
    if (!pg.isRunning()) {
      return new ServiceStatus("postgres", endpoint, false, "state=not-running");
    }
    long t0 = System.nanoTime();
    pg.stop();
    return new ServiceStatus("postgres", endpoint, false, "state=stopped ms=" + ms(t0));
  }

  /**
   * Every running job is stopped with a savepoint first (so the next run resumes from it), then the
   * TaskManager and the JobManager. A job whose savepoint fails is cancelled: its retained
   * checkpoints stay.
   */
  private ServiceStatus downFlink() {
    String endpoint = config.flinkRestUrl();
    long t0 = System.nanoTime();
    List<String> saved = new ArrayList<>();
    FlinkRest rest = new FlinkRest(endpoint);
    if (FreePorts.isListening(config.flinkRestPort()) && rest.isHealthy()) {
      for (FlinkRest.JobSummary j : rest.jobs()) {
        if (!"RUNNING".equals(j.state())) {
          continue;
        }
        try {
          String path = FlinkJobs.stopWithSavepoint(rest, j.id(), Duration.ofMinutes(5));
          log.info("flink job stopped job={} name={} savepoint={}", j.id(), j.name(), path);
          saved.add(path);
        } catch (RuntimeException e) {
          log.warn("flink job savepoint failed job={} name={} error=\"{}\" action=cancel", j.id(), j.name(),
              rootMessage(e));
          rest.cancel(j.id());
        }
      }
    }
    ServiceStatus tm = stopByPid("flink-taskmanager", endpoint, LocalFlink.TASKMANAGER_MAIN);
    ServiceStatus jm = stopByPid("flink-jobmanager", endpoint, LocalFlink.JOBMANAGER_MAIN);
    boolean stopped = tm.detail().contains("state=stopped") || jm.detail().contains("state=stopped");
    return new ServiceStatus("flink", endpoint, false, (stopped ? "state=stopped ms=" + ms(t0) : "state=not-running")
        + (saved.isEmpty() ? "" : " savepoints=" + String.join(",", saved)));
  }

  // ---- status -------------------------------------------------------------------------------

  /** Probes every service: Kafka describeCluster, registry GET /subjects, SELECT 1, /-/ready. */
  public List<ServiceStatus> status() {
    return List.of(kafkaStatus(), registryStatus(), postgresStatus(), alertmanagerStatus(), flinkStatus());
  }

  /** Flink: REST {@code /overview} answers, a TaskManager is registered and the local one (its pid file) runs. */
  ServiceStatus flinkStatus() {
    String url = config.flinkRestUrl();
    if (!FreePorts.isListening(config.flinkRestPort())) {
      return new ServiceStatus("flink", url, false, "reason=not-listening");
    }
    try {
      JsonNode o = new FlinkRest(url).overview();
      int tms = o.path("taskmanagers").asInt();
      Optional<Long> tmPid = readPid("flink-taskmanager");
      if (tmPid.isPresent() && ChildProcesses.alive(tmPid.get()).isEmpty()) {
        // killed or crashed, and the JobManager still lists it until its heartbeat times out
        return new ServiceStatus("flink", url, false, "reason=no-taskmanager taskmanager_pid=" + tmPid.get()
            + " (not running; the JobManager still lists " + tms + " until its heartbeat times out)");
      }
      String detail = "taskmanagers=" + tms + " slots_total=" + o.path("slots-total").asInt() + " slots_free="
          + o.path("slots-available").asInt() + " jobs_running=" + o.path("jobs-running").asInt() + " version="
          + o.path("flink-version").asText();
      return new ServiceStatus("flink", url, tms > 0, tms > 0 ? detail : "reason=no-taskmanager " + detail);
    } catch (RuntimeException e) {
      return new ServiceStatus("flink", url, false, "reason=\"" + rootMessage(e) + "\"");
    }
  }

  ServiceStatus kafkaStatus() {
    String endpoint = config.kafkaBootstrap();
    if (!FreePorts.isListening(config.kafkaPort())) {
      return new ServiceStatus("kafka", endpoint, false, "reason=not-listening");
    }
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, endpoint);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis());
    try (Admin admin = Admin.create(p)) {
      var cluster = admin.describeCluster();
      int nodes = cluster.nodes().get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).size();
      String id = cluster.clusterId().get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return new ServiceStatus("kafka", endpoint, true, "brokers=" + nodes + " cluster_id=" + id);
    } catch (Exception e) {
      return new ServiceStatus("kafka", endpoint, false, "reason=\"" + rootMessage(e) + "\"");
    }
  }

  ServiceStatus registryStatus() {
    String url = config.registryUrl();
    if (!FreePorts.isListening(config.registryPort())) {
      return new ServiceStatus("registry", url, false, "reason=not-listening");
    }
    try {
      HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build().send(
          HttpRequest.newBuilder(URI.create(url + "/subjects")).timeout(PROBE_TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200 && r.body().startsWith("[")) {
        int subjects = r.body().equals("[]") ? 0 : r.body().split(",").length;
        return new ServiceStatus("registry", url, true, "subjects=" + subjects);
      }
      return new ServiceStatus("registry", url, false, "reason=http-" + r.statusCode());
    } catch (IOException e) {
      return new ServiceStatus("registry", url, false, "reason=\"" + rootMessage(e) + "\"");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ServiceStatus("registry", url, false, "reason=interrupted");
    }
  }

  ServiceStatus postgresStatus() {
    String endpoint = "127.0.0.1:" + config.postgresPort();
    if (!FreePorts.isListening(config.postgresPort())) {
      return new ServiceStatus("postgres", endpoint, false, "reason=not-listening");
    }
    String url = config.postgresJdbcUrl() + "&connectTimeout=3&socketTimeout=5";
    java.util.Properties props = new java.util.Properties();
    Path ownerPassword = config.secretsDir().resolve(LocalPostgres.APP_ROLE + ".password");
    if (Files.isRegularFile(ownerPassword)) {
      props.setProperty("password", io.fleetscope.schemas.cli.DbPassword.read(ownerPassword, "the owner's password file"));
    }
    try (Connection c = DriverManager.getConnection(url, props); Statement st = c.createStatement()) {
      String one = scalar(st, "SELECT 1");
      String version = scalar(st, "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'");
      String license = scalar(st, "SELECT current_setting('timescaledb.license', true)");
      boolean ok = "1".equals(one) && version != null;
      return new ServiceStatus("postgres", endpoint, ok, "database=fleetscope timescaledb=" + version + " license=" + license);
    } catch (Exception e) {
      return new ServiceStatus("postgres", endpoint, false, "reason=\"" + rootMessage(e) + "\"");
    }
  }

  ServiceStatus alertmanagerStatus() {
    String url = config.alertmanagerUrl();
    boolean ok = FreePorts.isListening(config.alertmanagerPort()) && LocalAlertmanager.isReady(url);
    return new ServiceStatus("alertmanager", url, ok, ok ? "" : "reason=not-ready");
  }

  // ---- helpers ------------------------------------------------------------------------------

  private void refuseForeignListener(String service, int port) {
    if (!FreePorts.isFree(port)) {
      throw new IllegalStateException(service + ": port " + port
          + " is in use by something that does not answer as " + service + "; stop it or choose another port");
    }
  }

  private static ServiceStatus already(ServiceStatus s) {
    return new ServiceStatus(s.service(), s.endpoint(), true, "state=already-running " + s.detail());
  }

  private static ServiceStatus started(ServiceStatus s, long t0, long pid) {
    return new ServiceStatus(s.service(), s.endpoint(), s.healthy(),
        "state=started pid=" + pid + " ms=" + ms(t0) + " rss_kib=" + ChildProcesses.rssKiB(pid) + " " + s.detail());
  }

  private Path pidFile(String service) {
    return state.resolve("run").resolve(service + ".pid");
  }

  private void writePid(String service, long pid) {
    try {
      Files.createDirectories(pidFile(service).getParent());
      Files.writeString(pidFile(service), pid + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + pidFile(service), e);
    }
  }

  private Optional<Long> readPid(String service) {
    try {
      return Optional.of(Long.parseLong(Files.readString(pidFile(service)).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // harmless: the next up rewrites it
    }
  }

  private static void mkdirs(Path d) {
    try {
      Files.createDirectories(d);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + d, e);
    }
  }

  private static String scalar(Statement st, String sql) throws java.sql.SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return m.replace('"', '\'').replace('\n', ' ');
  }

  private static long ms(long t0) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
