package io.fleetscope.stack.services;

import io.fleetscope.schemas.cli.LocalEndpoints;
import io.fleetscope.stack.services.flink.LocalFlink;
import java.nio.file.Path;
import java.util.Map;

/**
 * Endpoints and state directory of the local stack ({@code fleetscope up | down | status}).
 *
 * <table>
 * <caption>Settings, their environment variables and defaults</caption>
 * <tr><th>setting</th><th>environment</th><th>default</th></tr>
 * <tr><td>stateDir</td><td>FLEETSCOPE_STATE_DIR</td><td>{@code .fleetscope} in the working directory</td></tr>
 * <tr><td>kafkaPort</td><td>FLEETSCOPE_KAFKA_PORT</td><td>19092</td></tr>
 * <tr><td>kafkaControllerPort</td><td>FLEETSCOPE_KAFKA_CONTROLLER_PORT</td><td>19094</td></tr>
 * <tr><td>registryPort</td><td>FLEETSCOPE_REGISTRY_PORT</td><td>18081</td></tr>
 * <tr><td>postgresPort</td><td>FLEETSCOPE_PG_PORT</td><td>15432</td></tr>
 * <tr><td>alertmanagerPort</td><td>FLEETSCOPE_ALERTMANAGER_PORT</td><td>19093</td></tr>
 * <tr><td>alertmanagerConfig</td><td>FLEETSCOPE_ALERTMANAGER_CONFIG</td><td>none: a config with a
 *     no-op receiver is written to {@code stateDir/alertmanager/alertmanager.yml}</td></tr>
 * <tr><td>flinkRestPort</td><td>FLEETSCOPE_FLINK_PORT</td><td>18082 (Flink REST API and web UI)</td></tr>
 * <tr><td>flinkRpcPort</td><td>FLEETSCOPE_FLINK_RPC_PORT</td><td>18086 (JobManager RPC)</td></tr>
 * <tr><td>flinkBlobPort</td><td>FLEETSCOPE_FLINK_BLOB_PORT</td><td>18087 (JobManager blob server)</td></tr>
 * <tr><td>flinkTaskManagerMemory</td><td>FLEETSCOPE_FLINK_TM_MEMORY</td><td>3g: the TaskManager's
 *     {@code taskmanager.memory.process.size} (heap, RocksDB's managed memory, network buffers)</td></tr>
 * <tr><td>flinkStateBackend</td><td>FLEETSCOPE_FLINK_STATE_BACKEND</td><td>rocksdb: state in RocksDB,
 *     incremental checkpoints; {@code hashmap} keeps it on the TaskManager's heap (full checkpoints,
 *     less CPU per record: BENCHMARKS.md)</td></tr>
 * <tr><td>flinkLibDir</td><td>FLEETSCOPE_FLINK_LIB</td><td>{@code stack/flink-cluster/target/lib} of the
 *     FleetScope checkout at or above the working directory: the Flink runtime jars</td></tr>
 * </table>
 * Everything listens on 127.0.0.1 only.
 */
public record StackConfig(Path stateDir, int kafkaPort, int kafkaControllerPort, int registryPort,
    int postgresPort, int alertmanagerPort, Path alertmanagerConfig, int flinkRestPort, int flinkRpcPort,
    int flinkBlobPort, String flinkTaskManagerMemory, Path flinkLibDir, String flinkStateBackend) {

  public static final int DEFAULT_KAFKA_PORT = LocalEndpoints.KAFKA_PORT;
  public static final int DEFAULT_KAFKA_CONTROLLER_PORT = LocalEndpoints.KAFKA_CONTROLLER_PORT;
  public static final int DEFAULT_REGISTRY_PORT = LocalEndpoints.REGISTRY_PORT;
  public static final int DEFAULT_POSTGRES_PORT = LocalEndpoints.POSTGRES_PORT;
  public static final int DEFAULT_ALERTMANAGER_PORT = LocalEndpoints.ALERTMANAGER_PORT;
  public static final int DEFAULT_FLINK_REST_PORT = LocalEndpoints.FLINK_REST_PORT;
  public static final int DEFAULT_FLINK_RPC_PORT = 18086;
  public static final int DEFAULT_FLINK_BLOB_PORT = 18087;
  public static final String DEFAULT_FLINK_TM_MEMORY = "3g";
  public static final String DEFAULT_FLINK_STATE_BACKEND = "rocksdb";

  public StackConfig {
    if (stateDir == null) {
      throw new IllegalArgumentException("stack: stateDir is required");
    }
    checkPort("kafkaPort (FLEETSCOPE_KAFKA_PORT)", kafkaPort);
    checkPort("kafkaControllerPort (FLEETSCOPE_KAFKA_CONTROLLER_PORT)", kafkaControllerPort);
    checkPort("registryPort (FLEETSCOPE_REGISTRY_PORT)", registryPort);
    checkPort("postgresPort (FLEETSCOPE_PG_PORT)", postgresPort);
    checkPort("alertmanagerPort (FLEETSCOPE_ALERTMANAGER_PORT)", alertmanagerPort);
    checkPort("flinkRestPort (FLEETSCOPE_FLINK_PORT)", flinkRestPort);
    checkPort("flinkRpcPort (FLEETSCOPE_FLINK_RPC_PORT)", flinkRpcPort);
    checkPort("flinkBlobPort (FLEETSCOPE_FLINK_BLOB_PORT)", flinkBlobPort);
    if (flinkTaskManagerMemory == null || !flinkTaskManagerMemory.matches("[0-9]+[kmgKMG]?")) {
      throw new IllegalArgumentException("stack: FLEETSCOPE_FLINK_TM_MEMORY="
          + flinkTaskManagerMemory + " is not a size such as 1536m or 3g");
    }
    if (!java.util.List.of("rocksdb", "hashmap").contains(flinkStateBackend)) {
      throw new IllegalArgumentException("stack: FLEETSCOPE_FLINK_STATE_BACKEND=" + flinkStateBackend
          + " is not rocksdb or hashmap");
    }
    int[] ports = {kafkaPort, kafkaControllerPort, registryPort, postgresPort, alertmanagerPort, flinkRestPort,
        flinkRpcPort, flinkBlobPort};
    for (int i = 0; i < ports.length; i++) {
      for (int j = i + 1; j < ports.length; j++) {
        if (ports[i] == ports[j]) {
          throw new IllegalArgumentException("stack: two services configured on port " + ports[i]);
        }
      }
    }
  }

  /** The defaults, with state under {@code workDir/.fleetscope}. */
  public static StackConfig defaults(Path workDir) {
    return new StackConfig(workDir.resolve(".fleetscope"), DEFAULT_KAFKA_PORT, DEFAULT_KAFKA_CONTROLLER_PORT,
        DEFAULT_REGISTRY_PORT, DEFAULT_POSTGRES_PORT, DEFAULT_ALERTMANAGER_PORT, null, DEFAULT_FLINK_REST_PORT,
        DEFAULT_FLINK_RPC_PORT, DEFAULT_FLINK_BLOB_PORT, DEFAULT_FLINK_TM_MEMORY, LocalFlink.findLibDir(workDir),
        DEFAULT_FLINK_STATE_BACKEND);
  }

  /** The defaults overridden by the FLEETSCOPE_* variables of {@code env}; bad values are refused. */
  public static StackConfig fromEnv(Map<String, String> env, Path workDir) {
    StackConfig d = defaults(workDir);
    String state = env.get("FLEETSCOPE_STATE_DIR");
    String am = env.get("FLEETSCOPE_ALERTMANAGER_CONFIG");
    return new StackConfig(
        state == null || state.isBlank() ? d.stateDir() : workDir.resolve(state),
        port(env, "FLEETSCOPE_KAFKA_PORT", d.kafkaPort()),
        port(env, "FLEETSCOPE_KAFKA_CONTROLLER_PORT", d.kafkaControllerPort()),
        port(env, "FLEETSCOPE_REGISTRY_PORT", d.registryPort()),
        port(env, "FLEETSCOPE_PG_PORT", d.postgresPort()),
        port(env, "FLEETSCOPE_ALERTMANAGER_PORT", d.alertmanagerPort()),
        am == null || am.isBlank() ? null : workDir.resolve(am),
        port(env, "FLEETSCOPE_FLINK_PORT", d.flinkRestPort()),
        port(env, "FLEETSCOPE_FLINK_RPC_PORT", d.flinkRpcPort()),
        port(env, "FLEETSCOPE_FLINK_BLOB_PORT", d.flinkBlobPort()),
        env.getOrDefault("FLEETSCOPE_FLINK_TM_MEMORY", d.flinkTaskManagerMemory()).trim(),
        env.containsKey("FLEETSCOPE_FLINK_LIB") ? workDir.resolve(env.get("FLEETSCOPE_FLINK_LIB")) : d.flinkLibDir(),
        env.getOrDefault("FLEETSCOPE_FLINK_STATE_BACKEND", d.flinkStateBackend()).trim());
  }

  /** The same with another Alertmanager configuration file. */
  public StackConfig withAlertmanagerConfig(Path config) {
    return new StackConfig(stateDir, kafkaPort, kafkaControllerPort, registryPort, postgresPort, alertmanagerPort, config,
        flinkRestPort, flinkRpcPort, flinkBlobPort, flinkTaskManagerMemory, flinkLibDir, flinkStateBackend);
  }

  /** The same with another state directory. */
  public StackConfig withStateDir(Path dir) {
    return new StackConfig(dir, kafkaPort, kafkaControllerPort, registryPort, postgresPort, alertmanagerPort,
        alertmanagerConfig, flinkRestPort, flinkRpcPort, flinkBlobPort, flinkTaskManagerMemory, flinkLibDir,
        flinkStateBackend);
  }

  /** The Flink REST API and web UI. */
  public String flinkRestUrl() {
    return "http://127.0.0.1:" + flinkRestPort;
  }

  /** The local Flink session cluster's settings: state under {@code stateDir/flink}, 2 slots, JobManager 768m. */
  public LocalFlink.Config flinkConfig() {
    return new LocalFlink.Config(stateDir.resolve("flink"), flinkLibDir, flinkRestPort, flinkRpcPort, flinkBlobPort, 2,
        "768m", flinkTaskManagerMemory, java.time.Duration.ofSeconds(2), true, java.time.Duration.ofSeconds(180),
        flinkStateBackend, ""); // Prometheus reporter off: it would listen on every interface
  }

  public String kafkaBootstrap() {
    return "127.0.0.1:" + kafkaPort;
  }

  public String registryUrl() {
    return "http://127.0.0.1:" + registryPort;
  }

  /** Where the local PostgreSQL's generated passwords live: {@code stateDir/secrets/ROLE.password}. */
  public Path secretsDir() {
    return stateDir.resolve("secrets");
  }

  /** JDBC url of database fleetscope as user fleetscope (its password: {@code secretsDir()/fleetscope.password}). */
  public String postgresJdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + postgresPort + "/fleetscope?user=fleetscope";
  }

  public String alertmanagerUrl() {
    return "http://127.0.0.1:" + alertmanagerPort;
  }

  private static int port(Map<String, String> env, String name, int dflt) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("stack: " + name + "=" + v + " is not a port number (1-65535)");
    }
  }

  private static void checkPort(String name, int p) {
    if (p < 1 || p > 65535) {
      throw new IllegalArgumentException("stack: " + name + "=" + p + " is not a port number (1-65535)");
    }
  }
}
