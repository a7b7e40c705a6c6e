package io.fleetscope.stack.services.flink;

import java.nio.file.Path;

/**
 * The files a {@link LocalFlink} cluster starts from: {@code config.yaml} (Flink 2's standard YAML,
 * flattened keys) and a log4j2 configuration writing one file per process.
 *
 * <p>State: RocksDB with incremental checkpoints, retained when a job is cancelled (so that the
 * next {@code fleetscope run} can resume from them), savepoints beside them; timers on the heap. Failover: restart the
 * failed region after 2 s, without giving up; heartbeats every {@code heartbeat} with a timeout of
 * five times that, so a lost TaskManager is noticed within seconds (Flink's defaults, 10 s and
 * 50 s, suit real networks better than a single machine).
 */
final class FlinkClusterConfig {
  private FlinkClusterConfig() {}

  static String yaml(LocalFlink.Config c) {
    Path dir = c.dir().toAbsolutePath();
    long hb = c.heartbeat().toMillis();
    return String.join("\n",
        "# written by FleetScope LocalFlink; rewritten at every start",
        "jobmanager.rpc.address: 127.0.0.1",
        "jobmanager.rpc.port: " + c.rpcPort(),
        "jobmanager.bind-host: 127.0.0.1",
        "jobmanager.memory.process.size: " + c.jobManagerMemory(),
        "jobmanager.execution.failover-strategy: region",
        "taskmanager.host: 127.0.0.1",
        "taskmanager.bind-host: 127.0.0.1",
        "taskmanager.numberOfTaskSlots: " + c.slots(),
        "taskmanager.memory.process.size: " + c.taskManagerMemory(),
        "taskmanager.rpc.port: 0",
        "taskmanager.data.port: 0",
        "parallelism.default: " + c.slots(),
        "rest.address: 127.0.0.1",
        "rest.bind-address: 127.0.0.1",
        "rest.port: " + c.restPort(),
        "blob.server.port: " + c.blobPort(),
        "web.submit.enable: true",
        "web.cancel.enable: true",
        "web.upload.dir: " + dir.resolve("tmp/upload"),
        "io.tmp.dirs: " + dir.resolve("tmp"),
        "state.backend.type: " + c.stateBackend(),
        // RocksDB's own LOG files, one per stateful operator and subtask, would land in the log directory
        "state.backend.rocksdb.log.dir: " + dir.resolve("tmp/rocksdb-log"),
        "state.backend.rocksdb.log.level: HEADER_LEVEL",
        "state.backend.rocksdb.log.file-num: 1",
        // timers on the heap: a few per key (one per open tick), registered again with every record
        // (a no-op there, a RocksDB read otherwise)
        "state.backend.rocksdb.timer-service.factory: HEAP",
        "execution.checkpointing.dir: " + dir.resolve("checkpoints").toUri(),
        "execution.checkpointing.savepoint-dir: " + dir.resolve("savepoints").toUri(),
        "execution.checkpointing.incremental: " + c.stateBackend().equals("rocksdb"),
        "execution.checkpointing.externalized-checkpoint-retention: RETAIN_ON_CANCELLATION",
        "execution.checkpointing.num-retained: 2",
        "restart-strategy.type: fixed-delay",
        "restart-strategy.fixed-delay.attempts: 2147483647",
        "restart-strategy.fixed-delay.delay: 2 s",
        "heartbeat.interval: " + hb + " ms",
        "heartbeat.timeout: " + (hb * 5) + " ms",
        "") + prometheusReporter(c.prometheusPorts());
  }

  /**
   * Flink's Prometheus reporter (flink-metrics-prometheus, in the cluster's lib) on {@code ports}, a
   * port or range: every JobManager and TaskManager serves {@code /metrics} on the first free port of
   * it ({@code flink_jobmanager_*}, {@code flink_taskmanager_*}); nothing when empty.
   */
  static String prometheusReporter(String ports) {
    if (ports.isEmpty()) {
      return "";
    }
    return String.join("\n",
        "metrics.reporter.prom.factory.class: org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
        "metrics.reporter.prom.port: " + ports,
        "");
  }

  static String log4j() {
    return String.join("\n",
        "# written by FleetScope LocalFlink: one file per process (log.file), rolled at 50 MB",
        "monitorInterval = 30",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.main.ref = MainAppender",
        "logger.kafka.name = org.apache.kafka",
        "logger.kafka.level = WARN",
        "logger.zookeeper.name = org.apache.flink.shaded.zookeeper3",
        "logger.zookeeper.level = WARN",
        "appender.main.name = MainAppender",
        "appender.main.type = RollingFile",
        "appender.main.append = true",
        "appender.main.fileName = ${sys:log.file}",
        "appender.main.filePattern = ${sys:log.file}.%i",
        "appender.main.layout.type = PatternLayout",
        "appender.main.layout.pattern = %d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5p %c{1.} - %m%n",
        "appender.main.policies.type = Policies",
        "appender.main.policies.size.type = SizeBasedTriggeringPolicy",
        "appender.main.policies.size.size = 50MB",
        "appender.main.strategy.type = DefaultRolloverStrategy",
        "appender.main.strategy.max = 3",
        "");
  }
}
