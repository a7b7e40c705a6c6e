package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private PostgreSQL 15 cluster with TimescaleDB preloaded, made with {@code initdb} in a
 * directory of ours, listening on 127.0.0.1 only with its unix socket inside that directory.
 * PostgreSQL refuses to run as root, so when we are root every server command runs as the
 * {@code postgres} OS user (which owns the directory).
 *
 * <p>Authentication: with a secrets directory ({@link Config#secretsDir}, the local stack), every
 * TCP connection needs a SCRAM-SHA-256 password (pg_hba.conf, rewritten at every start); each
 * role's password is generated into {@code SECRETS/ROLE.password} (mode 600) and set with a
 * verifier computed on our side, so no password reaches the server's log. Without one (test
 * instances), trust on 127.0.0.1 as before.
 *
 * <p>Layout: {@code DIR/pgdata} (the cluster), {@code DIR/postgres.log}, the socket in DIR.
 * After start: the owner role and database {@code fleetscope} (with timescaledb), the group roles
 * fleetscope_writer and fleetscope_reader, and the login roles fleetscope_sink (in
 * fleetscope_writer) and fleetscope_console (in fleetscope_reader).
 */
public final class LocalPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalPostgres.class);
  public static final String DEFAULT_BIN = "/usr/lib/postgresql/15/bin";
  public static final String SUPERUSER = "postgres";
  public static final String APP_ROLE = "fleetscope";
  public static final String WRITER_GROUP = "fleetscope_writer";
  public static final String READER_GROUP = "fleetscope_reader";
  public static final String WRITER_LOGIN = "fleetscope_sink";
  public static final String READER_LOGIN = "fleetscope_console";

  /**
   * @param dataDir directory for the cluster, socket and log
   * @param port TCP port on 127.0.0.1
   * @param binDir PostgreSQL 15 binaries (initdb, pg_ctl, pg_config)
   * @param testSpeedups fsync=off, synchronous_commit=off, full_page_writes=off: ONLY for test
   *     instances, whose data may be lost on a crash
   * @param secretsDir where each role's generated password lives ({@code ROLE.password}, mode 600);
   *     null: trust authentication on 127.0.0.1 (test instances)
   * @param tsdbLicense {@code timescaledb.license}: {@link #APACHE} or {@link #COMMUNITY} (needs the
   *     community build, see {@link #communityInstalled}); null: the build's default (community
   *     when install.sh built it, else apache)
   */
  public record Config(Path dataDir, int port, Path binDir, boolean testSpeedups, Path secretsDir, String tsdbLicense) {
    public static final String APACHE = "apache";
    public static final String COMMUNITY = "timescale";

    public Config {
      if (tsdbLicense != null && !tsdbLicense.equals(APACHE) && !tsdbLicense.equals(COMMUNITY)) {
        throw new IllegalArgumentException("timescaledb.license must be " + APACHE + " or " + COMMUNITY + ", not " + tsdbLicense);
      }
    }

    /** The build's default edition. */
    public Config(Path dataDir, int port, Path binDir, boolean testSpeedups, Path secretsDir) {
      this(dataDir, port, binDir, testSpeedups, secretsDir, null);
    }

    /**
     * A test instance: free port, speedups on, trust on 127.0.0.1, the Apache edition whichever
     * build is installed ({@link #withLicense} for the community edition).
     */
    public static Config forTests(Path dataDir) {
      return new Config(dataDir, FreePorts.pick(), Path.of(DEFAULT_BIN), true, null, APACHE);
    }

    /** A durable instance (the local stack) on the given port, SCRAM passwords in {@code secretsDir}. */
    public static Config durable(Path dataDir, int port, Path secretsDir) {
      return new Config(dataDir, port, Path.of(DEFAULT_BIN), false, secretsDir, null);
    }

    /** The same with SCRAM passwords generated into {@code dir}. */
    public Config withSecrets(Path dir) {
      return new Config(dataDir, port, binDir, testSpeedups, dir, tsdbLicense);
    }

    /** The same with this {@code timescaledb.license} ({@link #APACHE} or {@link #COMMUNITY}). */
    public Config withLicense(String license) {
      return new Config(dataDir, port, binDir, testSpeedups, secretsDir, license);
    }

    public boolean scram() {
      return secretsDir != null;
    }
  }

  /**
   * Whether TimescaleDB's community edition (its TSL library, built by install.sh from the source
   * tarball) is installed next to this PostgreSQL's binaries.
   */
  public static boolean communityInstalled(Path binDir) {
    Path lib = binDir.getParent().resolve("lib");
    try (java.util.stream.Stream<Path> files = Files.list(lib)) {
      return files.anyMatch(f -> f.getFileName().toString().matches("timescaledb-tsl-[0-9.]+\\.so"));
    } catch (IOException e) {
      return false;
    }
  }

  private final Config config;
  private final Path dir;
  private final PostgresSecrets secrets;
  /** Set when the server runs in a container (the containers backend of TestServices); then pg_ctl is not used. */
  private final ServiceContainer container;

  private LocalPostgres(Config config) {
    this(config, null);
  }

  private LocalPostgres(Config config, ServiceContainer container) {
    this.config = config;
    this.dir = config.dataDir().toAbsolutePath();
    this.secrets = config.scram() ? new PostgresSecrets(config.secretsDir().toAbsolutePath()) : null;
    this.container = container;
  }

  /**
   * A handle on a test instance (trust on 127.0.0.1) of this configuration that runs in
   * {@code container}; creates role and database fleetscope and the roles as {@link #start} does.
   */
  static LocalPostgres inContainer(Config config, ServiceContainer container) {
    if (config.scram()) {
      throw new IllegalArgumentException("postgres: a container instance is a test instance (trust), not SCRAM");
    }
    LocalPostgres pg = new LocalPostgres(config, container);
    pg.ensureAppDatabase();
    pg.ensureRoles();
    log.info("postgres listening address=127.0.0.1 port={} auth=trust container=true", config.port());
    return pg;
  }

  /** Initialises the cluster if needed, starts it, and creates role and database fleetscope. */
  public static LocalPostgres start(Config config) {
    LocalPostgres pg = new LocalPostgres(config);
    pg.checkInstalled();
    long t0 = System.nanoTime();
    boolean bootstrap = pg.initIfNeeded();
    pg.startServer();
    pg.ensureAppDatabase();
    pg.ensureRoles();
    if (bootstrap) {
      pg.secrets.commitSuperuser();
      pg.writeHba(false);
      pg.reloadConfig();
    }
    log.info("postgres listening address=127.0.0.1 port={} auth={} ms={} dir={} test_speedups={}", config.port(),
        config.scram() ? "scram-sha-256" : "trust", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), pg.dir,
        config.testSpeedups());
    return pg;
  }

  /** Connects to an already running cluster of this configuration (for status and down). */
  public static LocalPostgres attach(Config config) {
    return new LocalPostgres(config);
  }

  /** Throws the install hint when PostgreSQL 15 or TimescaleDB is missing. */
  public static void checkInstalled(Path binDir) {
    Path initdb = binDir.resolve("initdb");
    if (!Files.isExecutable(initdb)) {
      throw new IllegalStateException("PostgreSQL 15 is not installed (no " + initdb + "): run deploy/local/install.sh");
    }
    Path lib = binDir.getParent().resolve("lib").resolve("timescaledb.so");
    if (!Files.isRegularFile(lib)) {
      throw new IllegalStateException("TimescaleDB is not installed (no " + lib + "): run deploy/local/install.sh");
    }
  }

  private void checkInstalled() {
    checkInstalled(config.binDir());
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Runs a PostgreSQL binary, as the postgres OS user when we are root. */
  private String pgCommand(Duration timeout, String binary, String... args) {
    List<String> cmd = new ArrayList<>();
    if (isRoot()) {
      cmd.addAll(List.of("/usr/sbin/runuser", "-u", SUPERUSER, "--"));
    }
    cmd.add(config.binDir().resolve(binary).toString());
    cmd.addAll(List.of(args));
    return ChildProcesses.run(cmd, dir, timeout);
  }

  /**
   * Prepares the directory, the cluster and our settings. Returns whether the superuser's password
   * is still to be set (SCRAM mode, first start): then pg_hba.conf trusts 127.0.0.1 until
   * {@link #ensureRoles} has set every password, and is rewritten for SCRAM right after.
   */
  private boolean initIfNeeded() {
    try {
      Files.createDirectories(dir);
      if (isRoot()) {
        ChildProcesses.run(List.of("chown", SUPERUSER + ":", dir.toString()), dir, Duration.ofSeconds(10));
        assertReachableByPostgres(dir);
      }
      Path pgdata = dir.resolve("pgdata");
      if (!Files.exists(pgdata.resolve("PG_VERSION"))) {
        List<String> args = new ArrayList<>(List.of("-D", pgdata.toString(), "-A", "trust", "-U", SUPERUSER,
            "-E", "UTF8", "--locale=C"));
        if (config.testSpeedups()) {
          args.add("--no-sync");
        }
        pgCommand(Duration.ofSeconds(120), "initdb", args.toArray(String[]::new));
        log.info("postgres initdb dir={}", pgdata);
      }
      // our settings, rewritten at every start; postgresql.conf includes them
      Path conf = pgdata.resolve("postgresql.conf");
      String include = "include_if_exists = 'fleetscope.conf'";
      if (!Files.readString(conf).contains(include)) {
        appendAsOwner(conf, "\n" + include + "\n");
      }
      writeAsOwner(pgdata.resolve("fleetscope.conf"), settings());
      if (secrets == null) {
        return false;
      }
      boolean bootstrap = secrets.prepare();
      writeHba(bootstrap);
      return bootstrap;
    } catch (IOException e) {
      throw new UncheckedIOException("postgres: cannot prepare " + dir + ": " + e.getMessage(), e);
    }
  }

  private String settings() {
    StringBuilder b = new StringBuilder("# written by FleetScope LocalPostgres at every start\n");
    b.append("port = ").append(config.port()).append('\n');
    b.append("listen_addresses = '127.0.0.1'\n");
    b.append("unix_socket_directories = '").append(dir).append("'\n");
    b.append("shared_preload_libraries = 'timescaledb'\n");
    b.append("timescaledb.telemetry_level = off\n");
    if (config.tsdbLicense() != null) {
      b.append("timescaledb.license = '").append(config.tsdbLicense()).append("'\n");
    }
    b.append("max_connections = 100\n");
    // TimescaleDB's launcher, one job scheduler per database with the extension, and the workers
    // that run the jobs (the sink's compression, retention and refresh policies) all take
    // background-worker slots, as do parallel queries; PostgreSQL's default of 8 leaves a test
    // cluster with a handful of databases one slot for jobs
    b.append("max_worker_processes = 32\n");
    b.append("timescaledb.max_background_workers = 24\n");
    // ingest at tens of thousands of rows a second: the current chunks' indexes stay in shared
    // buffers, and checkpoints (each followed by full-page images in the WAL) come every 15 min
    // rather than every gigabyte of WAL (BENCHMARKS.md, whole pipeline)
    b.append("shared_buffers = 1GB\n");
    b.append("wal_buffers = 32MB\n");
    b.append("max_wal_size = 8GB\n");
    b.append("checkpoint_timeout = 15min\n");
    b.append("log_line_prefix = '%m [%p] '\n");
    b.append("password_encryption = 'scram-sha-256'\n");
    if (config.testSpeedups()) {
      b.append("# test instance only: data may be lost on a crash\n");
      b.append("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n");
    }
    return b.toString();
  }

  /**
   * pg_hba.conf in SCRAM mode: the unix socket (inside our directory) for the postgres OS user
   * only, TCP on 127.0.0.1 with a SCRAM password; nothing else. {@code bootstrap}: trust on
   * 127.0.0.1 until the passwords are set (first start only).
   */
  private void writeHba(boolean bootstrap) {
    String text = "# written by FleetScope LocalPostgres at every start\n"
        + "local all " + SUPERUSER + " peer\n"
        + "host all all 127.0.0.1/32 " + (bootstrap ? "trust" : "scram-sha-256") + "\n";
    try {
      writeAsOwner(dir.resolve("pgdata").resolve("pg_hba.conf"), text);
    } catch (IOException e) {
      throw new UncheckedIOException("postgres: cannot write pg_hba.conf: " + e.getMessage(), e);
    }
  }

  private void reloadConfig() {
    try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
      st.execute("SELECT pg_reload_conf()");
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot reload the configuration: " + e.getMessage(), e);
    }
    log.info("postgres auth=scram-sha-256 address=127.0.0.1 port={} secrets={}", config.port(), secrets.dir());
  }

  private void writeAsOwner(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
    chownToPostgres(file);
  }

  private void appendAsOwner(Path file, String text) throws IOException {
    Files.writeString(file, Files.readString(file) + text, StandardCharsets.UTF_8);
    chownToPostgres(file);
  }

  private void chownToPostgres(Path file) {
    if (isRoot()) {
      ChildProcesses.run(List.of("chown", SUPERUSER + ":", file.toString()), dir, Duration.ofSeconds(10));
    }
  }

  private static void assertReachableByPostgres(Path dir) {
    for (Path p = dir.getParent(); p != null; p = p.getParent()) {
      try {
        if (!Files.getPosixFilePermissions(p).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
          throw new IllegalStateException("postgres: the postgres OS user cannot reach " + dir + " because "
              + p + " is not searchable by others (chmod o+x " + p + ")");
        }
      } catch (IOException | UnsupportedOperationException e) {
        return;
      }
    }
  }

  private void startServer() {
    Path pgdata = dir.resolve("pgdata");
    if (container != null) {
      container.restart(Duration.ofSeconds(60));
      return;
    }
    if (isRunning()) {
      log.info("postgres already running endpoint=127.0.0.1:{}", config.port());
      return;
    }
    try {
      pgCommand(Duration.ofSeconds(90), "pg_ctl", "-D", pgdata.toString(), "-l", dir.resolve("postgres.log").toString(),
          "-w", "-t", "60", "start");
    } catch (IllegalStateException e) {
      throw new IllegalStateException("postgres: start failed on port " + config.port() + ": " + e.getMessage()
          + "\nlog tail:\n" + ChildProcesses.tail(dir.resolve("postgres.log"), 20), e);
    }
  }

  /** Whether the server of this data directory is running (pg_ctl status). */
  public boolean isRunning() {
    if (container != null) {
      return container.isRunning();
    }
    Path pgdata = dir.resolve("pgdata");
    if (!Files.exists(pgdata.resolve("postmaster.pid"))) {
      return false;
    }
    try {
      pgCommand(Duration.ofSeconds(10), "pg_ctl", "-D", pgdata.toString(), "status");
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  private void ensureAppDatabase() {
    try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
      if (!exists(st, "SELECT 1 FROM pg_roles WHERE rolname = '" + APP_ROLE + "'")) {
        st.execute("CREATE ROLE " + APP_ROLE + " LOGIN CREATEROLE");
      }
      if (!exists(st, "SELECT 1 FROM pg_database WHERE datname = '" + APP_ROLE + "'")) {
        st.execute("CREATE DATABASE " + APP_ROLE + " OWNER " + APP_ROLE);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot create role/database fleetscope: " + e.getMessage(), e);
    }
    try (Connection c = connect(APP_ROLE); Statement st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS timescaledb");
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot create extension timescaledb: " + e.getMessage(), e);
    }
  }

  /**
   * The group roles (also made by migration V001, for databases the stack did not create) and the
   * login roles in them; in SCRAM mode every login role's password from its file.
   */
  private void ensureRoles() {
    try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
      for (String group : List.of(WRITER_GROUP, READER_GROUP)) {
        if (!exists(st, "SELECT 1 FROM pg_roles WHERE rolname = '" + group + "'")) {
          st.execute("CREATE ROLE " + group + " NOLOGIN");
        }
      }
      for (String[] login : new String[][] {{WRITER_LOGIN, WRITER_GROUP}, {READER_LOGIN, READER_GROUP}}) {
        if (!exists(st, "SELECT 1 FROM pg_roles WHERE rolname = '" + login[0] + "'")) {
          st.execute("CREATE ROLE " + login[0] + " LOGIN IN ROLE " + login[1]);
        }
      }
      if (secrets != null) {
        PGConnection pgc = c.unwrap(PGConnection.class);
        for (String role : List.of(APP_ROLE, WRITER_LOGIN, READER_LOGIN)) {
          pgc.alterUserPassword(role, secrets.password(role).toCharArray(), "scram-sha-256");
        }
        pgc.alterUserPassword(SUPERUSER, secrets.superuserPassword().toCharArray(), "scram-sha-256");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot create the roles of FleetScope: " + e.getMessage(), e);
    }
  }

  private static boolean exists(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      return rs.next();
    }
  }

  /** A JDBC url of this cluster's database {@code db}, as the superuser postgres (in SCRAM mode it needs {@link #connect}). */
  public String jdbcUrl(String db) {
    return "jdbc:postgresql://127.0.0.1:" + config.port() + "/" + db + "?user=" + SUPERUSER;
  }

  /** A connection as postgres to database {@code db} (with its password in SCRAM mode). */
  public Connection connect(String db) throws SQLException {
    java.util.Properties p = new java.util.Properties();
    if (secrets != null) {
      p.setProperty("password", secrets.superuserPassword());
    }
    return DriverManager.getConnection(jdbcUrl(db), p);
  }

  /** The file holding {@code role}'s password (SCRAM mode). */
  public Path passwordFile(String role) {
    if (secrets == null) {
      throw new IllegalStateException("postgres: this instance trusts 127.0.0.1 and has no password files");
    }
    return secrets.file(role);
  }

  /**
   * Creates a fresh database (dropped first if it exists) with the timescaledb extension and
   * returns its JDBC url (user postgres).
   */
  public String createDatabase(String name) {
    if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("database name must match [a-z_][a-z0-9_]*: " + name);
    }
    try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot create database " + name + ": " + e.getMessage(), e);
    }
    try (Connection c = connect(name); Statement st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS timescaledb");
    } catch (SQLException e) {
      throw new IllegalStateException("postgres: cannot create timescaledb in " + name + ": " + e.getMessage(), e);
    }
    return jdbcUrl(name);
  }

  /** Stops (fast) and starts the server again, keeping its data. */
  public void restart() {
    stop();
    startServer();
    log.info("postgres restarted endpoint=127.0.0.1:{}", config.port());
  }

  /** Stops the server (fast shutdown) and waits for it. */
  public void stop() {
    if (!isRunning()) {
      return;
    }
    if (container != null) {
      container.stop(Duration.ofSeconds(60));
      log.info("postgres stopped endpoint=127.0.0.1:{}", config.port());
      return;
    }
    pgCommand(Duration.ofSeconds(60), "pg_ctl", "-D", dir.resolve("pgdata").toString(), "-m", "fast", "-w", "stop");
    log.info("postgres stopped endpoint=127.0.0.1:{}", config.port());
  }

  public int port() {
    return config.port();
  }

  public Config config() {
    return config;
  }

  /** The server's pid from postmaster.pid, or -1. */
  public long pid() {
    if (container != null) {
      return container.pid();
    }
    try {
      return Long.parseLong(Files.readAllLines(dir.resolve("pgdata").resolve("postmaster.pid")).get(0).trim());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    if (container != null) {
      container.close();
      return;
    }
    stop();
  }
}
