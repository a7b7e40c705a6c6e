package io.fleetscope.schemas.cli;

/**
 * Where the services of the local stack ({@code ./fleetscope up}) listen: the default of every
 * endpoint option, so that a command run without flags talks to the local stack. Everything listens
 * on 127.0.0.1 only (ARCHITECTURE.md, "Default local endpoints").
 */
public final class LocalEndpoints {
  public static final String HOST = "127.0.0.1";
  public static final int KAFKA_PORT = 19092;
  public static final int KAFKA_CONTROLLER_PORT = 19094;
  public static final int REGISTRY_PORT = 18081;
  public static final int POSTGRES_PORT = 15432;
  public static final int ALERTMANAGER_PORT = 19093;
  public static final int CONSOLE_PORT = 18080;
  public static final int FLINK_REST_PORT = 18082;
  public static final int CORRELATOR_HTTP_PORT = 18083;

  /** Kafka bootstrap servers. */
  public static final String KAFKA = "127.0.0.1:19092";
  /** Schema registry base URL. */
  public static final String REGISTRY = "http://127.0.0.1:18081";
  /** The TimescaleDB database the sink writes and the console, query and export read. */
  public static final String JDBC_URL = "jdbc:postgresql://127.0.0.1:15432/fleetscope";
  /** The database's owner: runs the migrations, nothing else (its password: STATE/secrets/fleetscope.password). */
  public static final String JDBC_USER = "fleetscope";
  /** The sink's login role, member of the group role fleetscope_writer. */
  public static final String JDBC_WRITER_USER = "fleetscope_sink";
  /** The login role of the console, query and export, member of the group role fleetscope_reader. */
  public static final String JDBC_READER_USER = "fleetscope_console";
  /** Alertmanager base URL. */
  public static final String ALERTMANAGER = "http://127.0.0.1:19093";
  /** Flink REST API and web UI of the session cluster. */
  public static final String FLINK = "http://127.0.0.1:18082";

  private LocalEndpoints() {}
}
