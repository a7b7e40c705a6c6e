package io.fleetscope.flink;

import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.core.JobCatalog;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.WallClock;
import io.fleetscope.flink.io.KafkaEndpoints;
import io.fleetscope.flink.io.KafkaOutputSink;
import io.fleetscope.flink.io.KafkaTelemetrySource;
import java.nio.file.Path;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleetscope run}: every analytic on a local MiniCluster against Kafka and the schema
 * registry. Flags override the environment ({@code FLEETSCOPE_KAFKA}, {@code FLEETSCOPE_REGISTRY}),
 * which override the local defaults (127.0.0.1:19092, http://127.0.0.1:18081):
 * {@code --bootstrap HOST:PORT --registry URL [--config FILE] [--group-id ID] [--from-latest]}.
 */
public final class RunMain {
  private static final Logger log = LoggerFactory.getLogger(RunMain.class);

  private RunMain() {}

  public static void main(String[] args) throws Exception {
    String bootstrap = env("FLEETSCOPE_KAFKA", "127.0.0.1:19092");
    String registry = env("FLEETSCOPE_REGISTRY", "http://127.0.0.1:18081");
    String group = "fleetscope-analytics";
    boolean earliest = true;
    Path config = null;
    Path checkpointDir = Path.of(".fleetscope", "flink-checkpoints");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--bootstrap" -> bootstrap = args[++i];
        case "--registry" -> registry = args[++i];
        case "--config" -> config = Path.of(args[++i]);
        case "--group-id" -> group = args[++i];
        case "--from-latest" -> earliest = false;
        case "--checkpoint-dir" -> checkpointDir = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + a
            + "; usage: run [--bootstrap HOST:PORT] [--registry URL] [--config FILE] [--group-id ID] [--from-latest]"
            + " [--checkpoint-dir DIR]");
      }
    }
    AnalyticsConfig cfg = config == null ? AnalyticsConfig.defaults() : AnalyticsConfig.load(config);
    KafkaEndpoints ep = new KafkaEndpoints(bootstrap, registry, group, earliest);
    StreamExecutionEnvironment env = environment(cfg.pipeline(), checkpointDir);
    new FleetAnalytics(new KafkaTelemetrySource(ep, WallClock.system()), new KafkaOutputSink(ep), cfg,
        JobCatalog.all(), WallClock.system()).build(env);
    log.info("analytics starting bootstrap={} registry={} group={} parallelism={}", bootstrap, registry, group,
        cfg.pipeline().parallelism());
    env.execute("fleetscope-analytics");
  }

  /**
   * A local streaming environment with checkpointing (Kafka offsets are committed on checkpoints).
   * Checkpoints go to files under {@code checkpointDir}: the JobManager's in-memory storage refuses
   * state over 5 MB, which a fleet of a few thousand GPUs already exceeds (and then no Kafka offset is
   * ever committed). The network buffer pool is sized for the job graph of every analytic at once.
   */
  public static StreamExecutionEnvironment environment(PipelineConfig p, Path checkpointDir) {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toAbsolutePath().toUri().toString());
    conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(256));
    conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(256));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(p.parallelism(), conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.enableCheckpointing(p.checkpointIntervalMs());
    return env;
  }

  private static String env(String name, String dflt) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? dflt : v;
  }
}
